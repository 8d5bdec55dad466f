"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: git worktrees (issue 19, deliverable 4): the reference's name rules, location and branch
// naming (src/tools/worktree.ts), the context modifiers that move a session into one and back
// (engine/context.ts), and EnterWorktree/ExitWorktree through the one pipeline on a real git
// repository: the cwd every later call sees, what is protected inside a worktree, and what
// removing one refuses.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const path = __importStar(require("node:path"));
const context_1 = require("../../src/engine/context");
const messages_1 = require("../../src/engine/messages");
const pipeline_1 = require("../../src/pipeline");
const builtin_1 = require("../../src/tools/builtin");
const worktree_1 = require("../../src/tools/worktree");
const pipelineFixtures_1 = require("./pipelineFixtures");
const bash_1 = require("../../src/tools/builtin/bash");
const host_1 = require("../../src/sandbox/host");
const worktree_2 = require("../../src/cli/worktree");
const systemPackages_1 = require("../support/systemPackages");
/** Bash's sandbox in these tests (the worker's start-up owns one: src/workerDeps.ts). */
const sandboxHost = new host_1.SandboxHost();
const TOOLS = [...builtin_1.BUILTIN_TOOLS, builtin_1.EnterWorktreeTool, builtin_1.ExitWorktreeTool];
function repo() {
    const dir = (0, node_fs_1.realpathSync)((0, node_fs_1.mkdtempSync)(path.join((0, node_os_1.tmpdir)(), 'da-wt-')));
    const g = (...args) => (0, node_child_process_1.execFileSync)('git', args, { cwd: dir, stdio: 'ignore' });
    g('init', '-q', '-b', 'main');
    g('config', 'user.email', 't@example.com');
    g('config', 'user.name', 't');
    (0, node_fs_1.writeFileSync)(path.join(dir, 'a.txt'), 'main\n');
    g('add', '.');
    g('commit', '-qm', 'init');
    return dir;
}
const gitOut = (cwd, ...args) => (0, node_child_process_1.execFileSync)('git', args, { cwd, encoding: 'utf8' }).trim();
(0, node_test_1.test)('unit: worktree names follow the reference rules', () => {
    for (const ok of ['feat/x-1', 'a.b_c-d', 'x', 'a'.repeat(64), 'v1.2/fix'])
        strict_1.default.equal((0, worktree_1.worktreeNameProblem)(ok), undefined, ok);
    const bad = [
        ['', /empty/],
        ['bad name!', /only letters, digits, dots, underscores, and dashes/],
        ['../esc', /"\." or "\.\." path segments/],
        ['a/./b', /"\." or "\.\." path segments/],
        ['..', /"\." or "\.\." path segments/],
        ['a//b', /non-empty/],
        ['/abs', /non-empty/],
        ['trail/', /non-empty/],
        ['a'.repeat(65), /at most 64/],
        ['x;rm -rf', /only letters/],
        ['tab\tname', /only letters/],
        ['é', /only letters/],
    ];
    for (const [name, why] of bad)
        strict_1.default.match((0, worktree_1.worktreeNameProblem)(name) ?? '(valid)', why, JSON.stringify(name));
    strict_1.default.equal((0, worktree_1.worktreeDirName)('feat/x-1'), 'feat+x-1');
    strict_1.default.equal((0, worktree_1.worktreeBranch)('feat/x-1'), 'worktree-feat+x-1');
    for (let i = 0; i < 20; i++)
        strict_1.default.equal((0, worktree_1.worktreeNameProblem)((0, worktree_1.randomWorktreeName)()), undefined);
    strict_1.default.match((0, worktree_1.randomWorktreeName)(() => 0), /^[a-z]+-[a-z]+ing-[a-z]+$/);
});
(0, node_test_1.test)('unit: worktreeEntered moves cwd and the project directory; worktreeExited restores both', () => {
    const start = { ...(0, context_1.initialContext)('/repo/sub', ['/extra']), projectDir: '/repo' };
    const wt = { path: '/repo/.claude/worktrees/a', branch: 'worktree-a', base: 'abc', created: true, repoRoot: '/repo' };
    const inside = (0, context_1.applyContextModifiers)(start, [{ type: 'worktreeEntered', worktree: wt }]);
    strict_1.default.equal(inside.cwd, wt.path);
    strict_1.default.equal(inside.projectDir, wt.path);
    strict_1.default.deepEqual(inside.additionalDirectories, ['/extra']);
    strict_1.default.equal(inside.worktree?.originalCwd, '/repo/sub');
    // Switching to another worktree keeps what the first entry saved.
    const switched = (0, context_1.applyContextModifiers)(inside, [
        { type: 'worktreeEntered', worktree: { ...wt, path: '/elsewhere', created: false } },
    ]);
    strict_1.default.equal(switched.worktree?.originalCwd, '/repo/sub');
    strict_1.default.equal(switched.worktree?.originalProjectDir, '/repo');
    const back = (0, context_1.applyContextModifiers)(switched, [{ type: 'worktreeExited' }]);
    strict_1.default.deepEqual(back, start);
    // Without a project directory before, none after (setCwd's first-cwd anchor is not invented).
    const plain = (0, context_1.initialContext)('/p');
    strict_1.default.deepEqual((0, context_1.applyContextModifiers)(plain, [{ type: 'worktreeEntered', worktree: wt }, { type: 'worktreeExited' }]), plain);
    strict_1.default.deepEqual((0, context_1.applyContextModifiers)(plain, [{ type: 'worktreeExited' }]), plain);
});
/** Runs one call through the pipeline and folds its modifiers into the context, as a scheduler does. */
async function step(ctx, name, input) {
    const env = (0, pipelineFixtures_1.makeEnv)(ctx.cwd, { tools: TOOLS, mode: ctx.mode ?? 'bypassPermissions' });
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)(name, input), { ...env, agent: ctx.agent });
    ctx.agent = (0, context_1.applyContextModifiers)(ctx.agent, o.contextModifiers);
    return {
        text: o.result ? (0, messages_1.toolResultText)(o.result) : `(${o.status})`,
        isError: o.result?.is_error === true,
        status: o.status,
    };
}
(0, node_test_1.test)('unit: EnterWorktree creates .claude/worktrees/<name> on worktree-<name>; later calls work there; ExitWorktree keep/remove', async () => {
    const root = repo();
    try {
        const s = { agent: (0, context_1.initialContext)(root), cwd: root };
        const r = await step(s, 'EnterWorktree', { name: 'feat/x-1' });
        const wt = path.join(root, '.claude', 'worktrees', 'feat+x-1');
        strict_1.default.equal(r.isError, false, r.text);
        strict_1.default.equal(r.text, `Created worktree at “${wt}” on branch “worktree-feat+x-1”. The session is now working in the worktree. Use ExitWorktree to leave mid-session.`);
        strict_1.default.equal(s.agent.cwd, wt);
        strict_1.default.equal(gitOut(wt, 'branch', '--show-current'), 'worktree-feat+x-1');
        strict_1.default.match((0, node_fs_1.readFileSync)(path.join(wt, '.git'), 'utf8'), /^gitdir: .*\/\.git\/worktrees\/feat\+x-1/);
        // A relative Write lands in the worktree, not in the main checkout.
        strict_1.default.equal((await step(s, 'Write', { file_path: 'a.txt', content: 'wt\n' })).isError, true, 'needs a read first');
        await step(s, 'Read', { file_path: 'a.txt' });
        strict_1.default.equal((await step(s, 'Write', { file_path: 'a.txt', content: 'wt\n' })).isError, false);
        strict_1.default.equal((0, node_fs_1.readFileSync)(path.join(wt, 'a.txt'), 'utf8'), 'wt\n');
        strict_1.default.equal((0, node_fs_1.readFileSync)(path.join(root, 'a.txt'), 'utf8'), 'main\n');
        // A second EnterWorktree while in one is refused.
        strict_1.default.match((await step(s, 'EnterWorktree', { name: 'other' })).text, /Already in a worktree session/);
        // remove refuses to lose the uncommitted file; discard_changes removes worktree and branch.
        const refused = await step(s, 'ExitWorktree', { action: 'remove' });
        strict_1.default.equal(refused.isError, true);
        strict_1.default.match(refused.text, /Worktree has 1 uncommitted file\. Removing will discard this work permanently/);
        strict_1.default.equal(s.agent.cwd, wt, 'a refused exit stays');
        const removed = await step(s, 'ExitWorktree', { action: 'remove', discard_changes: true });
        strict_1.default.equal(removed.text, `Exited and removed worktree at “${wt}”. Discarded 1 uncommitted file. Session is now back in “${root}”.`);
        strict_1.default.equal(s.agent.cwd, root);
        strict_1.default.equal((0, node_fs_1.existsSync)(wt), false);
        strict_1.default.equal(gitOut(root, 'branch', '--list', 'worktree-feat+x-1'), '');
        // Nothing to exit now.
        const noop = await step(s, 'ExitWorktree', { action: 'keep' });
        strict_1.default.equal(noop.isError, true);
        strict_1.default.match(noop.text, /No-op: there is no active EnterWorktree session/);
        // keep leaves worktree and branch; a commit made in it counts as work a remove would lose.
        await step(s, 'EnterWorktree', { name: 'k' });
        const k = path.join(root, '.claude', 'worktrees', 'k');
        (0, node_child_process_1.execFileSync)('git', ['commit', '-q', '--allow-empty', '-m', 'work'], { cwd: k });
        strict_1.default.match((await step(s, 'ExitWorktree', { action: 'remove' })).text, /Worktree has 1 commit\./);
        strict_1.default.equal((await step(s, 'ExitWorktree', { action: 'keep' })).text, `Exited worktree. Your work is preserved at “${k}” on branch “worktree-k”. Session is now back in “${root}”.`);
        strict_1.default.equal(gitOut(k, 'branch', '--show-current'), 'worktree-k');
        // Entering the same name again reuses it (and, not made by this entry, is never removed).
        const again = await step(s, 'EnterWorktree', { name: 'k' });
        strict_1.default.match(again.text, /^Entered worktree at/);
        strict_1.default.match((await step(s, 'ExitWorktree', { action: 'remove', discard_changes: true })).text, /did not create/);
        strict_1.default.equal((0, node_fs_1.existsSync)(k), true);
    }
    finally {
        (0, node_fs_1.rmSync)(root, { recursive: true, force: true });
    }
});
(0, node_test_1.test)('unit: bad EnterWorktree input is an is_error result and creates nothing', async () => {
    const root = repo();
    try {
        const s = { agent: (0, context_1.initialContext)(root), cwd: root };
        for (const [input, why] of [
            [{ name: 'bad name!' }, /only letters, digits/],
            [{ name: '../../escape' }, /"\." or "\.\." path segments/],
            [{ name: 'a', path: '/tmp' }, /at most one of `name` or `path`/],
            [{ name: 'a', extra: 1 }, /extra|Unrecognized/i],
            [{ path: '/tmp' }, /not a registered worktree/],
            [{ path: root }, /not a registered worktree/],
        ]) {
            const r = await step(s, 'EnterWorktree', input);
            strict_1.default.equal(r.isError, true, JSON.stringify(input));
            strict_1.default.match(r.text, why);
            strict_1.default.equal(s.agent.cwd, root);
        }
        strict_1.default.equal((0, node_fs_1.existsSync)(path.join(root, '.claude')), false);
        strict_1.default.equal((0, node_fs_1.existsSync)(path.join(root, '..', 'escape')), false);
        // Outside a repository.
        const plain = (0, node_fs_1.realpathSync)((0, node_fs_1.mkdtempSync)(path.join((0, node_os_1.tmpdir)(), 'da-wt-plain-')));
        try {
            const p = { agent: (0, context_1.initialContext)(plain), cwd: plain };
            strict_1.default.match((await step(p, 'EnterWorktree', { name: 'x' })).text, /not in a git repository/);
        }
        finally {
            (0, node_fs_1.rmSync)(plain, { recursive: true, force: true });
        }
    }
    finally {
        (0, node_fs_1.rmSync)(root, { recursive: true, force: true });
    }
});
(0, node_test_1.test)('unit: inside a worktree its .git pointer and the main repository .git stay protected from the file tools', async () => {
    const root = repo();
    try {
        const s = { agent: (0, context_1.initialContext)(root), cwd: root, mode: 'acceptEdits' };
        await step({ ...s, mode: 'bypassPermissions' }, 'EnterWorktree', { name: 'p' }).then(() => undefined);
        s.agent = (0, context_1.applyContextModifiers)((0, context_1.initialContext)(root), [
            {
                type: 'worktreeEntered',
                worktree: { path: path.join(root, '.claude', 'worktrees', 'p'), created: true, repoRoot: root },
            },
        ]);
        const wt = s.agent.cwd;
        const pointer = (0, node_fs_1.readFileSync)(path.join(wt, '.git'), 'utf8');
        // acceptEdits allows ordinary edits in the worktree…
        strict_1.default.equal((await step(s, 'Write', { file_path: 'new.txt', content: 'x' })).isError, false);
        // …but a write to the .git pointer, the main repository's config or hooks, or through
        // .claude/worktrees into another control file asks (and nobody answers in dontAsk).
        for (const target of [
            path.join(wt, '.git'),
            path.join(root, '.git', 'config'),
            path.join(root, '.git', 'hooks', 'pre-commit'),
            path.join(root, '.git', 'worktrees', 'p', 'commondir'),
            path.join(wt, '.claude', 'settings.json'),
            path.join(root, '.claude', 'settings.json'),
        ]) {
            const r = await step({ ...s, mode: 'dontAsk' }, 'Write', { file_path: target, content: 'gitdir: /tmp/evil\n' });
            strict_1.default.equal(r.isError, true, target);
            const asked = await step(s, 'Write', { file_path: target, content: 'x' });
            strict_1.default.equal(asked.status, 'ask', `${target}: ${asked.text}`);
        }
        strict_1.default.equal((0, node_fs_1.readFileSync)(path.join(wt, '.git'), 'utf8'), pointer);
        strict_1.default.equal((0, node_fs_1.existsSync)(path.join(root, '.git', 'hooks', 'pre-commit')), false);
    }
    finally {
        (0, node_fs_1.rmSync)(root, { recursive: true, force: true });
    }
});
(0, node_test_1.test)('unit: ExitWorktree remove never follows a symlink planted in place of the worktree', async () => {
    const root = repo();
    const victim = (0, node_fs_1.realpathSync)((0, node_fs_1.mkdtempSync)(path.join((0, node_os_1.tmpdir)(), 'da-wt-victim-')));
    try {
        (0, node_fs_1.writeFileSync)(path.join(victim, 'keep.txt'), 'precious');
        const s = { agent: (0, context_1.initialContext)(root), cwd: root };
        await step(s, 'EnterWorktree', { name: 'v' });
        const wt = s.agent.cwd;
        (0, node_child_process_1.execFileSync)('git', ['worktree', 'remove', '--force', wt], { cwd: root });
        (0, node_fs_1.symlinkSync)(victim, wt);
        const r = await step(s, 'ExitWorktree', { action: 'remove', discard_changes: true });
        strict_1.default.equal(r.isError, true);
        strict_1.default.match(r.text, /no longer a worktree/);
        strict_1.default.equal((0, node_fs_1.readFileSync)(path.join(victim, 'keep.txt'), 'utf8'), 'precious');
        // A symlink higher up (.claude/worktrees → elsewhere, the worktree moved along) is refused too.
        (0, node_fs_1.rmSync)(wt);
        const moved = path.join(victim, 'moved');
        (0, node_child_process_1.execFileSync)('git', ['worktree', 'add', '-q', moved, 'worktree-v'], { cwd: root });
        (0, node_fs_1.rmSync)(path.join(root, '.claude', 'worktrees'), { recursive: true });
        (0, node_fs_1.symlinkSync)(victim, path.join(root, '.claude', 'worktrees'));
        (0, node_child_process_1.execFileSync)('git', ['worktree', 'move', moved, path.join(victim, 'v')], { cwd: root });
        const up = await step(s, 'ExitWorktree', { action: 'remove', discard_changes: true });
        strict_1.default.equal(up.isError, true, up.text);
        strict_1.default.equal((0, node_fs_1.existsSync)(path.join(victim, 'v', 'a.txt')), true);
    }
    finally {
        (0, node_fs_1.rmSync)(root, { recursive: true, force: true });
        (0, node_fs_1.rmSync)(victim, { recursive: true, force: true });
    }
});
(0, node_test_1.test)('unit: EnterWorktree path outside the working directories asks; run --worktree reuse keeps the branch', async () => {
    const root = repo();
    const outside = path.join(path.dirname(root), `${path.basename(root)}-side`);
    try {
        (0, node_child_process_1.execFileSync)('git', ['worktree', 'add', '-q', '-b', 'side', outside], { cwd: root });
        const s = { agent: (0, context_1.initialContext)(root), cwd: root, mode: 'default' };
        strict_1.default.equal((await step(s, 'EnterWorktree', { path: outside })).status, 'ask');
        strict_1.default.equal((await step({ ...s, mode: 'dontAsk' }, 'EnterWorktree', { path: outside })).isError, true);
        strict_1.default.equal(s.agent.cwd, root);
        const entered = await step({ ...s, mode: 'bypassPermissions' }, 'EnterWorktree', { path: outside });
        strict_1.default.equal(entered.text.startsWith(`Entered worktree at “${outside}” on branch “side”.`), true, entered.text);
        // createOrReuseWorktree (run --worktree): the second time the same worktree comes back.
        const a = await (0, worktree_1.createOrReuseWorktree)(root, 'job');
        const b = await (0, worktree_1.createOrReuseWorktree)(path.join(root, '.claude', 'worktrees', 'job'), 'job');
        strict_1.default.equal(a.created, true);
        strict_1.default.equal(b.created, false);
        strict_1.default.equal(b.path, a.path);
        strict_1.default.equal(b.branch, 'worktree-job');
        await strict_1.default.rejects((0, worktree_1.createOrReuseWorktree)(root, 'bad name'), /Invalid worktree name/);
    }
    finally {
        (0, node_fs_1.rmSync)(root, { recursive: true, force: true });
        (0, node_fs_1.rmSync)(outside, { recursive: true, force: true });
    }
});
(0, node_test_1.test)('unit: sandboxed Bash in a worktree (run --worktree and EnterWorktree) commits on its branch and cannot write the main checkout, git config, hooks or pointers', async (t) => {
    const available = await sandboxHost.availability();
    if (!available.available) {
        if ((0, systemPackages_1.isCI)())
            throw new Error(`the sandbox must be available in CI: ${available.reason}`);
        return t.skip(`sandbox unavailable: ${available.reason}`);
    }
    const root = repo();
    try {
        const wt = await (0, worktree_1.createOrReuseWorktree)(root, 'sbx');
        const modes = [
            // run --worktree: the worktree is the session's only working directory; the CLI adds git's access.
            ['run --worktree', sandboxCtx(wt.path, [wt.path], (0, worktree_2.worktreeSandbox)({}, wt))],
            // EnterWorktree from the main checkout: the checkout stays a working directory of the session.
            ['EnterWorktree', sandboxCtx(wt.path, [root], {}, { ...wt, originalCwd: root, created: true })],
        ];
        for (const [mode, ctx] of modes) {
            const bash = async (command) => (await bash_1.BashTool.call({ command }, ctx, () => undefined)).data;
            const file = `f-${mode.replace(/\W/g, '')}.txt`;
            const commit = await bash(`echo x > ${file} && git add ${file} && git commit -qm ${file} && git branch --show-current`);
            strict_1.default.equal(commit.exitCode, 0, `${mode}: ${commit.output}`);
            strict_1.default.match(commit.output, /worktree-sbx/);
            strict_1.default.equal(gitOut(root, 'log', '-1', '--format=%s', 'worktree-sbx'), file, mode);
            const pointer = (0, node_fs_1.readFileSync)(path.join(wt.path, '.git'), 'utf8');
            const config = (0, node_fs_1.readFileSync)(path.join(root, '.git', 'config'), 'utf8');
            const commondir = (0, node_fs_1.readFileSync)(path.join(wt.gitDir, 'commondir'), 'utf8');
            await bash([
                `echo 'gitdir: /tmp/evil' > .git`,
                `git config core.fsmonitor 'touch /tmp/pwned'`,
                `printf '[core]\\n\\tpager = evil\\n' >> ${root}/.git/config`,
                `mkdir -p ${root}/.git/hooks; echo evil > ${root}/.git/hooks/post-checkout`,
                `echo /tmp/evil > ${wt.gitDir}/commondir`,
                `echo evil > ${wt.gitDir}/config.worktree`,
                `echo main-touched > ${root}/a.txt`,
                `echo new > ${root}/planted.txt`,
            ].join('; '));
            strict_1.default.equal((0, node_fs_1.readFileSync)(path.join(wt.path, '.git'), 'utf8'), pointer, `${mode}: .git pointer`);
            strict_1.default.equal((0, node_fs_1.readFileSync)(path.join(root, '.git', 'config'), 'utf8'), config, `${mode}: main config`);
            strict_1.default.equal((0, node_fs_1.readFileSync)(path.join(wt.gitDir, 'commondir'), 'utf8'), commondir, `${mode}: commondir`);
            strict_1.default.equal((0, node_fs_1.existsSync)(path.join(root, '.git', 'hooks', 'post-checkout')), false, `${mode}: hook`);
            const perWorktree = path.join(wt.gitDir, 'config.worktree');
            strict_1.default.equal((0, node_fs_1.existsSync)(perWorktree) ? (0, node_fs_1.readFileSync)(perWorktree, 'utf8') : '', '', `${mode}: config.worktree`);
            strict_1.default.equal((0, node_fs_1.readFileSync)(path.join(root, 'a.txt'), 'utf8'), 'main\n', `${mode}: main checkout`);
            strict_1.default.equal((0, node_fs_1.existsSync)(path.join(root, 'planted.txt')), false, `${mode}: main checkout`);
        }
    }
    finally {
        await sandboxHost.close();
        (0, node_fs_1.rmSync)(root, { recursive: true, force: true });
    }
});
function sandboxCtx(cwd, workingDirectories, sandbox, worktree) {
    return {
        sessionId: 'wt-session',
        toolUseId: 'toolu_wt',
        idempotencyKey: 'k',
        agent: { cwd, projectDir: cwd, additionalDirectories: [], readFiles: {}, ...(worktree ? { worktree } : {}) },
        permission: {
            mode: 'bypassPermissions',
            rules: { allow: [], ask: [], deny: [] },
            workingDirectories,
            sandbox,
        },
        abortSignal: new AbortController().signal,
        sandboxHost,
    };
}
//# sourceMappingURL=worktree.test.js.map