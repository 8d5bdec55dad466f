"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: a Claude Code user's real settings files through `durable-agent run` on the real
// dev server: a ~/.claude/settings.json full of UI keys (and `"model": "sonnet"`) runs (one note, no flood), behaviour keys
// are warned with the file and key, `~/` additionalDirectories reach the session, claudeMdExcludes
// keeps a CLAUDE.md from the model; malformed JSON and a missing --add-dir stop `run` with one
// line naming the file (line and column) or the flag, before anything starts.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const cli_1 = require("../support/cli");
(0, node_test_1.after)(async () => {
    await (0, temporal_1.closeTestEnv)();
});
async function put(path, content) {
    await node_fs_1.promises.mkdir((0, node_path_1.join)(path, '..'), { recursive: true });
    await node_fs_1.promises.writeFile(path, content);
    return path;
}
(0, node_test_1.test)('integration: `run` with a real-world ~/.claude/settings.json: UI keys one note, behaviour keys warned, ~/ directories and claudeMdExcludes honoured; malformed JSON and a missing --add-dir stop it', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, taskQueue, workDir }) => {
        const home = await node_fs_1.promises.mkdtemp((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-settings-home-'));
        const env = {
            TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
            DURABLE_AGENT_TASK_QUEUE: taskQueue,
            HOME: home,
            CLAUDE_CONFIG_DIR: (0, node_path_1.join)(home, '.claude'),
            DURABLE_AGENT_HOME: (0, node_path_1.join)(home, '.durable-agent'),
            DURABLE_AGENT_MANAGED_SETTINGS: (0, node_path_1.join)(home, 'no-managed-settings.json'),
            DURABLE_AGENT_MANAGED_MEMORY: (0, node_path_1.join)(home, 'no-managed-CLAUDE.md'),
        };
        await node_fs_1.promises.mkdir((0, node_path_1.join)(home, 'shared-lib'), { recursive: true });
        // Saved by an editor that writes a byte-order mark.
        const user = await put((0, node_path_1.join)(home, '.claude', 'settings.json'), '\ufeff' +
            JSON.stringify({
                $schema: 'https://json.schemastore.org/claude-code-settings.json',
                model: 'sonnet',
                cleanupPeriodDays: 30,
                statusLine: { type: 'command', command: '~/.claude/statusline.sh' },
                spinnerTipsEnabled: false,
                theme: 'dark',
                includeCoAuthoredBy: false,
                env: { NODE_ENV: 'test' },
                permissions: { additionalDirectories: ['~/shared-lib'] },
                claudeMdExcludes: ['**/vendor/CLAUDE.md'],
            }));
        await put((0, node_path_1.join)(workDir, '.claude', 'settings.local.json'), '');
        await put((0, node_path_1.join)(workDir, 'CLAUDE.md'), 'Project memory BANANA-1.\n@vendor/CLAUDE.md\n');
        await put((0, node_path_1.join)(workDir, 'vendor', 'CLAUDE.md'), 'Vendored memory CHERRY-2.\n');
        fake.enqueue((0, fakeAnthropic_1.textResponse)('done'));
        const run = await (0, cli_1.cli)(['run', '--cwd', workDir, 'go'], env, 90_000);
        strict_1.default.equal(run.code, 0, run.stderr);
        strict_1.default.ok(run.stdout.includes(`settings: ${user}, ${(0, node_path_1.join)(workDir, '.claude', 'settings.local.json')}`), run.stdout);
        strict_1.default.ok(run.stdout.includes(`memory: ${(0, node_path_1.join)(workDir, 'CLAUDE.md')}\n`), run.stdout);
        const lines = run.stderr.trim().split('\n');
        strict_1.default.deepEqual(lines.filter((l) => l.startsWith('durable-agent: note:')), [
            `durable-agent: note: ${user}: cleanupPeriodDays, statusLine, spinnerTipsEnabled, theme only shape Claude Code's interactive terminal, login, updates or local housekeeping; durable-agent has none of these (ignored)`,
        ]);
        const warned = lines
            .filter((l) => l.startsWith('durable-agent: warning:'))
            .map((l) => l.slice(`durable-agent: warning: ${user}: `.length).split(' is ')[0]);
        strict_1.default.deepEqual(warned, ['includeCoAuthoredBy', 'env (NODE_ENV)']);
        const first = fake.messageRequests()[0];
        strict_1.default.match(first.model, /^claude-sonnet-/, '"model": "sonnet" (what /model writes) is a model id on the wire');
        strict_1.default.match(JSON.stringify(first.system), new RegExp((0, node_path_1.join)(home, 'shared-lib').replace(/[.]/g, '\\.')), 'the ~/ directory is a working directory of the session');
        const text = JSON.stringify(first.messages[0]?.content);
        strict_1.default.ok(text.includes('BANANA-1') && !text.includes('CHERRY-2'), text);
        // The JSON forms say which files were loaded too.
        fake.enqueue((0, fakeAnthropic_1.textResponse)('again'));
        const detached = await (0, cli_1.cli)(['run', '--detach', '--json', '--cwd', workDir, 'go'], env, 30_000);
        strict_1.default.equal(detached.code, 0, detached.stderr);
        const d = JSON.parse(detached.stdout);
        strict_1.default.deepEqual([d.cwd, d.settings, d.memory], [workDir, [user, (0, node_path_1.join)(workDir, '.claude', 'settings.local.json')], [(0, node_path_1.join)(workDir, 'CLAUDE.md')]]);
        strict_1.default.ok(d.session);
        // A trailing comma in the shared file: one line naming it, with line and column; nothing starts.
        const shared = await put((0, node_path_1.join)(workDir, '.claude', 'settings.json'), '{\n  "permissions": {\n    "deny": ["Bash(rm:*)",]\n  }\n}\n');
        const bad = await (0, cli_1.cli)(['run', '--cwd', workDir, 'go'], env, 30_000);
        strict_1.default.notEqual(bad.code, 0);
        strict_1.default.match(bad.stderr, new RegExp(`durable-agent: .*${shared.replace(/[.]/g, '\\.')} is not valid JSON at line 3 column 27`));
        await node_fs_1.promises.rm(shared);
        const missing = await (0, cli_1.cli)(['run', '--cwd', workDir, '--add-dir', (0, node_path_1.join)(home, 'nope'), 'go'], env, 30_000);
        strict_1.default.notEqual(missing.code, 0);
        strict_1.default.match(missing.stderr.trim(), new RegExp(`--add-dir ${(0, node_path_1.join)(home, 'nope')} does not exist$`));
        await node_fs_1.promises.rm(home, { recursive: true, force: true });
    });
});
//# sourceMappingURL=settings-files.test.js.map