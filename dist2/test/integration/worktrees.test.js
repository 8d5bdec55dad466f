"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: `run --worktree` (issue 19, deliverable 4) through the command line on the real dev
// server: two unattended sessions on one repository, each in its own worktree, write the same
// relative path at the same time and run Bash there; each sees only its own file, the main checkout
// is untouched, and a second run with the same name reuses the worktree. Bad flags end with one line.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const node_os_1 = require("node:os");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const messages_1 = require("../../src/engine/messages");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const cli_1 = require("../support/cli");
(0, node_test_1.after)(temporal_1.closeTestEnv);
async function repo() {
    const dir = (0, node_fs_1.realpathSync)(await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-wt-repo-')));
    const g = (...args) => (0, node_child_process_1.execFileSync)('git', args, { cwd: dir, stdio: 'ignore' });
    g('init', '-q', '-b', 'main');
    g('config', 'user.email', 't@example.com');
    g('config', 'user.name', 't');
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, 'README.md'), 'main checkout\n');
    g('add', '.');
    g('commit', '-qm', 'init');
    return dir;
}
(0, node_test_1.test)('cli: two sessions in two worktrees of one repository write the same path without touching each other', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, taskQueue, storeDir }) => {
        const root = await repo();
        const home = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-home-'));
        const env = {
            TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
            DURABLE_AGENT_TASK_QUEUE: taskQueue,
            DURABLE_AGENT_HOME: home,
            DURABLE_AGENT_STORE_DIR: storeDir,
            HOME: home,
        };
        // The model answers each session from its own working directory (named in the system prompt).
        fake.script((req) => {
            const dir = /The working directory is ([^;.\s]+(?:\.[^;.\s]+)*)[;.]/.exec(JSON.stringify(req.system))?.[1];
            const name = dir?.split('/').pop() ?? 'unknown';
            const results = (0, fakeAnthropic_1.lastToolResults)(req);
            if (results.length === 0)
                return (0, fakeAnthropic_1.toolUseResponse)([
                    { id: `toolu_w_${name}`, name: 'Write', input: { file_path: 'shared.txt', content: `written by ${name}\n` } },
                ]);
            if (results[0]?.tool_use_id === `toolu_w_${name}`)
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: `toolu_b_${name}`,
                        name: 'Bash',
                        input: {
                            command: `pwd; git branch --show-current; cat shared.txt; git add shared.txt && git commit -qm 'from ${name}'`,
                        },
                    },
                ]);
            return (0, fakeAnthropic_1.textResponse)(`done in ${name}`);
        });
        const run = (name) => (0, cli_1.cli)([
            'run',
            '--cwd',
            root,
            '--model',
            'claude-test',
            '--permission-mode',
            'acceptEdits',
            '--worktree',
            name,
            'write',
            'the',
            'shared',
            'file',
        ], env, 120_000);
        const [a, b] = await Promise.all([run('alpha'), run('beta')]);
        for (const [name, r] of [
            ['alpha', a],
            ['beta', b],
        ]) {
            strict_1.default.equal(r.code, 0, r.stderr);
            strict_1.default.match(r.stderr, new RegExp(`created worktree \\.claude/worktrees/${name} on branch worktree-${name}`));
            const wt = (0, node_path_1.join)(root, '.claude', 'worktrees', name);
            strict_1.default.equal(await (0, promises_1.readFile)((0, node_path_1.join)(wt, 'shared.txt'), 'utf8'), `written by ${name}\n`);
            // Bash ran in the worktree, on its branch, and saw its own file.
            const bash = fake
                .messageRequests()
                .flatMap((q) => (0, fakeAnthropic_1.lastToolResults)(q))
                .find((x) => x.tool_use_id === `toolu_b_${name}`);
            strict_1.default.ok(bash, `the Bash result of ${name}`);
            strict_1.default.notEqual(bash.is_error, true);
            strict_1.default.equal((0, messages_1.toolResultText)(bash).trim(), `${wt}\nworktree-${name}\nwritten by ${name}`);
        }
        // Each session committed on its own branch (sandboxed Bash may write the git objects and refs);
        // the main checkout has no shared.txt and main did not move; git knows both worktrees.
        for (const name of ['alpha', 'beta'])
            strict_1.default.equal((0, node_child_process_1.execFileSync)('git', ['log', '-1', '--format=%s', `worktree-${name}`], { cwd: root, encoding: 'utf8' }).trim(), `from ${name}`);
        strict_1.default.equal((0, node_child_process_1.execFileSync)('git', ['log', '-1', '--format=%s', 'main'], { cwd: root, encoding: 'utf8' }).trim(), 'init');
        strict_1.default.equal((0, node_fs_1.existsSync)((0, node_path_1.join)(root, 'shared.txt')), false);
        const list = (0, node_child_process_1.execFileSync)('git', ['worktree', 'list', '--porcelain'], { cwd: root, encoding: 'utf8' });
        strict_1.default.match(list, /worktrees\/alpha\nHEAD [0-9a-f]+\nbranch refs\/heads\/worktree-alpha/);
        strict_1.default.match(list, /worktrees\/beta\nHEAD [0-9a-f]+\nbranch refs\/heads\/worktree-beta/);
        // The same name again: the worktree (and what the first session left there) is reused.
        const again = await run('alpha');
        strict_1.default.equal(again.code, 0, again.stderr);
        strict_1.default.match(again.stderr, /reusing worktree \.claude\/worktrees\/alpha on branch worktree-alpha/);
    });
});
(0, node_test_1.test)('cli: run --worktree with a bad name or outside a repository ends with one line and starts nothing', async () => {
    const plain = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-wt-plain-'));
    const root = await repo();
    const env = { TEMPORAL_ADDRESS: '127.0.0.1:1' };
    const bad = await (0, cli_1.cli)(['run', '--cwd', root, '--worktree', '../escape', 'do', 'it'], env);
    strict_1.default.notEqual(bad.code, 0);
    strict_1.default.match(bad.stderr, /--worktree: Invalid worktree name "\.\.\/escape": must not contain "\." or "\.\." path segments/);
    strict_1.default.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
    strict_1.default.equal((0, node_fs_1.existsSync)((0, node_path_1.join)(root, '.claude')), false);
    const spaced = await (0, cli_1.cli)(['run', '--cwd', root, '--worktree', 'fix the bug', 'now'], env);
    strict_1.default.notEqual(spaced.code, 0);
    strict_1.default.match(spaced.stderr, /put the prompt before --worktree/);
    const outside = await (0, cli_1.cli)(['run', '--cwd', plain, '--worktree', 'x', 'do', 'it'], env);
    strict_1.default.notEqual(outside.code, 0);
    strict_1.default.match(outside.stderr, /--worktree: Cannot create a worktree: .* is not in a git repository/);
    strict_1.default.equal(outside.stderr.trim().split('\n').length, 1, outside.stderr);
});
(0, node_test_1.test)('integration: EnterWorktree mid-session moves every later call (Write, sandboxed Bash commit) into the worktree until ExitWorktree', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start }) => {
        const root = await repo();
        const wt = (0, node_path_1.join)(root, '.claude', 'worktrees', 'mid');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_mid_enter', name: 'EnterWorktree', input: { name: 'mid' } }]), (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_mid_write', name: 'Write', input: { file_path: 'w.txt', content: 'in wt\n' } }]), (0, fakeAnthropic_1.toolUseResponse)([
            {
                id: 'toolu_mid_bash',
                name: 'Bash',
                input: { command: "pwd; git add w.txt && git commit -qm 'mid work' && git branch --show-current" },
            },
        ]), (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_mid_exit', name: 'ExitWorktree', input: { action: 'keep' } }]), (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_mid_back', name: 'Write', input: { file_path: 'back.txt', content: 'main\n' } }]), (0, fakeAnthropic_1.textResponse)('done'));
        const result = await (await start({ prompt: 'work in a worktree', cwd: root, permissionMode: 'bypassPermissions' })).result();
        strict_1.default.equal(result.status, 'completed');
        const results = new Map(fake
            .messageRequests()
            .flatMap((q) => (0, fakeAnthropic_1.lastToolResults)(q))
            .map((r) => [r.tool_use_id, r]));
        strict_1.default.match((0, messages_1.toolResultText)(results.get('toolu_mid_enter')), /^Created worktree at “.*\/\.claude\/worktrees\/mid” on branch “worktree-mid”/);
        strict_1.default.equal(await (0, promises_1.readFile)((0, node_path_1.join)(wt, 'w.txt'), 'utf8'), 'in wt\n');
        const bash = results.get('toolu_mid_bash');
        strict_1.default.notEqual(bash?.is_error, true, (0, messages_1.toolResultText)(bash));
        strict_1.default.equal((0, messages_1.toolResultText)(bash).trim(), `${wt}\nworktree-mid`);
        strict_1.default.equal((0, node_child_process_1.execFileSync)('git', ['log', '-1', '--format=%s', 'worktree-mid'], { cwd: root, encoding: 'utf8' }).trim(), 'mid work');
        strict_1.default.match((0, messages_1.toolResultText)(results.get('toolu_mid_exit')), /^Exited worktree\. Your work is preserved at/);
        // After ExitWorktree a relative path is the main checkout's again.
        strict_1.default.equal(await (0, promises_1.readFile)((0, node_path_1.join)(root, 'back.txt'), 'utf8'), 'main\n');
        strict_1.default.equal((0, node_fs_1.existsSync)((0, node_path_1.join)(root, 'w.txt')), false);
        strict_1.default.equal((0, node_fs_1.existsSync)((0, node_path_1.join)(wt, 'back.txt')), false);
    });
});
//# sourceMappingURL=worktrees.test.js.map