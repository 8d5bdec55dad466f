"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.captureTools = captureTools;
// Captures the tool definitions the reference binary (Claude Code, pinned in ./run.ts) offers, as
// test fixtures: test/fixtures/reference-tools/<version>/<Tool>.json holds a tool's name and its
// input_schema with every `description` text removed (field names, types, enums, limits and
// required lists stay; the reference's prompt texts never enter the project), and index.json how
// each tool is offered:
//   - upFront: sent with its schema in the first request of a default `claude -p` session;
//   - deferred: sent as `defer_loading` (listed by name to the model, loaded through ToolSearch);
//   - onlyWithTools: offered only when `--tools` names it (Glob, Grep, TaskCreate…).
// Two offline runs against the fake Messages API: a default session whose model calls ToolSearch
// with `select:<every deferred tool>` (the schemas come back in the next request), and a session
// started with `--tools <every known built-in>` and ENABLE_TOOL_SEARCH=false (every schema in the
// first request). Both must agree on every schema they share.
//
//   node dist/test/reference/captureTools.js [--check] [--out DIR]
//
// --check: compare with the fixtures on disk and exit 1 on a difference (nothing written).
const node_fs_1 = require("node:fs");
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
require("../support/isolatedHome");
const claudeOffline_1 = require("../support/claudeOffline");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const run_1 = require("./run");
const schemas_1 = require("./schemas");
/** Built-in tool names tried with `--tools` (the binary ignores the ones it does not know in this mode). */
const CANDIDATES = [
    'Agent',
    'Bash',
    'Edit',
    'Read',
    'Write',
    'Glob',
    'Grep',
    'NotebookEdit',
    'WebFetch',
    'WebSearch',
    'Skill',
    'ToolSearch',
    'TodoWrite',
    'TaskCreate',
    'TaskGet',
    'TaskUpdate',
    'TaskList',
    'TaskStop',
    'TaskOutput',
    'Monitor',
    'ScheduleWakeup',
    'CronCreate',
    'CronList',
    'CronDelete',
    'EnterWorktree',
    'ExitWorktree',
    'EnterPlanMode',
    'ExitPlanMode',
    'AskUserQuestion',
    'SendMessage',
    'ListAgents',
    'ReportFindings',
    'Workflow',
    'RemoteTrigger',
    'PushNotification',
    'ListMcpResources',
    'ReadMcpResource',
    'LSP',
];
/** The reference's stand-in that keeps deferred loading on; not a tool. */
const PLACEHOLDER = 'DeferredToolPlaceholder';
/** One offline `claude -p` run; returns the tools of every request and the init event's tool list. */
async function session(extraArgs, env, script) {
    const { root, dir, home } = await (0, claudeOffline_1.offlineDirs)('da-ref-tools-', { settings: true });
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)({ validateToolPairing: false, allowSystemMessages: true });
    let n = 0;
    fake.script((req) => {
        if (!req.tools || req.tools.length === 0)
            return (0, fakeAnthropic_1.textResponse)('ok');
        return script(req.tools, n++) ?? (0, fakeAnthropic_1.textResponse)('done');
    });
    try {
        const r = await (0, claudeOffline_1.runToExit)(run_1.CLAUDE_BIN, [
            '-p',
            'list the tools',
            '--output-format',
            'stream-json',
            '--verbose',
            '--permission-mode',
            'bypassPermissions',
            ...extraArgs,
        ], { cwd: dir, env: (0, claudeOffline_1.offlineEnv)(home, fake.baseURL, env) });
        const failed = (0, claudeOffline_1.exitError)(r);
        if (failed)
            throw new Error(failed);
        const stdout = r.stdout;
        const init = stdout
            .split('\n')
            .filter((l) => l.startsWith('{'))
            .map((l) => JSON.parse(l))
            .find((e) => e.type === 'system' && e.subtype === 'init');
        return {
            requests: fake
                .messageRequests()
                .filter((r) => r.tools && r.tools.length > 0)
                .map((r) => r.tools),
            initTools: init?.tools ?? [],
        };
    }
    finally {
        await fake.close();
        await (0, promises_1.rm)(root, { recursive: true, force: true });
    }
}
async function captureTools() {
    (0, run_1.ensureReference)();
    // 1. A default session: the up-front tools in the first request, the deferred ones loaded by ToolSearch.
    let deferredNames = [];
    const byDefault = await session([], {}, (tools, n) => {
        if (n > 0)
            return undefined;
        deferredNames = tools.filter((t) => t.defer_loading && t.name !== PLACEHOLDER).map((t) => t.name);
        return undefined;
    });
    const first = byDefault.requests[0] ?? [];
    const upFront = first.filter((t) => !t.defer_loading).map((t) => t.name);
    // The init event names every tool of the session ("Task" is the Agent tool's old name); those not
    // sent up front are the deferred ones (2.1.328 sends only a placeholder until ToolSearch loads them).
    const initDeferred = byDefault.initTools.filter((t) => t !== 'Task' && !upFront.includes(t));
    deferredNames = [...new Set([...deferredNames, ...initDeferred])].sort();
    const loaded = await session([], {}, (_tools, n) => n === 0
        ? (0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_select', name: 'ToolSearch', input: { query: `select:${deferredNames.join(',')}` } },
        ])
        : undefined);
    const afterSearch = loaded.requests[1] ?? [];
    const missing = deferredNames.filter((d) => !afterSearch.some((t) => t.name === d));
    if (missing.length)
        throw new Error(`ToolSearch did not load ${missing.join(', ')}`);
    // 2. Every built-in the binary offers with --tools, schemas up front.
    const all = await session(['--tools', CANDIDATES.join(',')], { ENABLE_TOOL_SEARCH: 'false' }, () => undefined);
    const full = all.requests[0] ?? [];
    const defs = new Map();
    for (const t of [...afterSearch, ...full]) {
        if (t.name === PLACEHOLDER)
            continue;
        const prev = defs.get(t.name);
        if (prev && JSON.stringify(prev.input_schema) !== JSON.stringify(t.input_schema))
            throw new Error(`${t.name}: its schema differs between the ToolSearch load and --tools`);
        defs.set(t.name, t);
    }
    const tools = [...defs.values()]
        .map((t) => ({ name: t.name, input_schema: (0, schemas_1.stripDescriptions)(t.input_schema) }))
        .sort((a, b) => a.name.localeCompare(b.name));
    const onlyWithTools = tools
        .map((t) => t.name)
        .filter((n) => !upFront.includes(n) && !deferredNames.includes(n))
        .sort();
    return {
        index: { version: run_1.REFERENCE_VERSION, upFront: [...upFront].sort(), deferred: deferredNames, onlyWithTools },
        tools,
    };
}
const fixtureDir = (out) => out ?? (0, node_path_1.join)(__dirname, '..', '..', '..', 'test', 'fixtures', 'reference-tools', run_1.REFERENCE_VERSION);
async function main() {
    const args = process.argv.slice(2);
    const check = args.includes('--check');
    const outAt = args.indexOf('--out');
    const dir = fixtureDir(outAt >= 0 ? args[outAt + 1] : undefined);
    const { index, tools } = await captureTools();
    const files = { 'index.json': `${JSON.stringify(index, null, 2)}\n` };
    for (const t of tools)
        files[`${t.name}.json`] = `${JSON.stringify(t, null, 2)}\n`;
    if (check) {
        // Only tool captures (`<Tool>.json`) and the index: other fixtures here (monitor-events.json) are not this capture's.
        const have = (0, node_fs_1.existsSync)(dir) ? (await (0, promises_1.readdir)(dir)).filter((f) => /^([A-Z]\w*|index)\.json$/.test(f)) : [];
        const diffs = [];
        for (const f of new Set([...have, ...Object.keys(files)])) {
            const old = have.includes(f) ? await (0, promises_1.readFile)((0, node_path_1.join)(dir, f), 'utf8') : undefined;
            if (old !== files[f])
                diffs.push(`${f}: ${old === undefined ? 'new' : files[f] === undefined ? 'gone' : 'differs'}`);
        }
        console.log(diffs.length ? diffs.join('\n') : `${Object.keys(files).length} files agree with ${dir}`);
        process.exit(diffs.length ? 1 : 0);
    }
    await (0, promises_1.rm)(dir, { recursive: true, force: true });
    await (0, promises_1.mkdir)(dir, { recursive: true });
    for (const [f, text] of Object.entries(files))
        await (0, promises_1.writeFile)((0, node_path_1.join)(dir, f), text);
    console.log(`${tools.length} tools (${index.upFront.length} up front, ${index.deferred.length} deferred, ${index.onlyWithTools.length} only with --tools) -> ${dir}`);
    process.exit(0);
}
if (require.main === module) {
    main().catch((err) => {
        console.error(`captureTools: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(2);
    });
}
//# sourceMappingURL=captureTools.js.map