"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MONITOR_COMMAND = void 0;
exports.captureMonitor = captureMonitor;
// Captures what the reference (Claude Code 2.1.328, offline against the fake API) sends the model
// for a Monitor: the tool result, then each event notification and the end notification, with a
// watch command that writes a batch of lines at once, an over-long line, and a burst of lines over
// the rate limit. The texts become test/fixtures/reference-tools/2.1.328/monitor-events.json (ids
// and paths normalised, the reference's preamble and guidance left out), which engine/monitorLines.ts and engine/taskNotifications.ts follow.
//   node dist/test/reference/captureMonitor.js [--out FILE]
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
require("../support/isolatedHome");
const claudeOffline_1 = require("../support/claudeOffline");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const run_1 = require("./run");
/** 12 lines at once (one event), a 600-character line, then 14 lines 250 ms apart (over the 10-event burst). */
exports.MONITOR_COMMAND = [
    'for i in $(seq 1 12); do echo "batch $i"; done',
    'sleep 0.6',
    "printf 'L%.0s' $(seq 1 600); echo",
    'sleep 0.6',
    'for i in $(seq 1 14); do echo "burst $i"; sleep 0.25; done',
    'sleep 2.5',
    'echo last',
].join('; ');
function texts(m) {
    if (typeof m.content === 'string')
        return [m.content];
    return m.content.flatMap((b) => {
        if (b.type === 'text' && b.text)
            return [b.text];
        if (b.type === 'tool_result')
            return [typeof b.content === 'string' ? b.content : JSON.stringify(b.content)].map((t) => `[tool_result] ${t}`);
        return [];
    });
}
async function captureMonitor() {
    (0, run_1.ensureReference)();
    const { root, dir, home } = await (0, claudeOffline_1.offlineDirs)('da-ref-monitor-', { settings: true });
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)({ validateToolPairing: false, allowSystemMessages: true });
    let n = 0;
    fake.script((req) => {
        if (!req.tools || req.tools.length === 0)
            return (0, fakeAnthropic_1.textResponse)('ok');
        if (n++ === 0)
            return (0, fakeAnthropic_1.toolUseResponse)([
                {
                    id: 'toolu_monitor',
                    name: 'Monitor',
                    input: { description: 'watch <lines> & more', timeout_ms: 60_000, command: exports.MONITOR_COMMAND },
                },
            ]);
        return (0, fakeAnthropic_1.textResponse)('noted');
    });
    try {
        const r = await (0, claudeOffline_1.runToExit)(run_1.CLAUDE_BIN, ['-p', 'watch it', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'bypassPermissions'], { cwd: dir, env: (0, claudeOffline_1.offlineEnv)(home, fake.baseURL, { ENABLE_TOOL_SEARCH: 'false' }) });
        const failed = (0, claudeOffline_1.exitError)(r);
        if (failed)
            throw new Error(failed);
        // Every text the model was sent after its Monitor call, in order, each once.
        const seen = [];
        for (const req of fake.messageRequests().filter((r) => r.tools && r.tools.length > 0)) {
            for (const m of req.messages)
                for (const t of texts(m))
                    if (!seen.includes(t))
                        seen.push(t);
        }
        const normalised = seen
            .filter((t) => t.includes('<task-notification>') || t.startsWith('[tool_result] Monitor'))
            .map((t) => t
            .replace(/<output-file>[^<]*<\/output-file>/g, '<output-file>$OUTPUT_FILE</output-file>')
            .replace(/(<task-id>|\(task )b[a-z0-9]{8}\b/g, '$1$TASK_ID')
            // Not the reference's own words (its preamble, its guidance after the first sentence): only their place.
            .replace(/^<system-reminder>\n[\s\S]*?\n\n<task-notification>/, '<system-reminder>\n$PREAMBLE\n\n<task-notification>')
            .replace(/^(\[tool_result\] Monitor started \([^)]*\)\.) [\s\S]*$/, '$1 $GUIDANCE'));
        return { version: run_1.REFERENCE_VERSION, command: exports.MONITOR_COMMAND, seen: normalised };
    }
    finally {
        await fake.close();
        await (0, promises_1.rm)(root, { recursive: true, force: true });
    }
}
async function main() {
    const args = process.argv.slice(2);
    const outAt = args.indexOf('--out');
    const out = outAt >= 0
        ? args[outAt + 1]
        : (0, node_path_1.join)(__dirname, '..', '..', '..', 'test', 'fixtures', 'reference-tools', run_1.REFERENCE_VERSION, 'monitor-events.json');
    const captured = await captureMonitor();
    await (0, promises_1.writeFile)(out, `${JSON.stringify(captured, null, 2)}\n`);
    process.stdout.write(`${captured.seen.length} texts -> ${out}\n`);
}
if (require.main === module)
    main().catch((err) => {
        process.stderr.write(`${err.stack ?? String(err)}\n`);
        process.exit(1);
    });
//# sourceMappingURL=captureMonitor.js.map