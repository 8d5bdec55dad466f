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
// The protected paths (src/permissions/protectedPaths.ts): the definition (spellings, every working
// directory, symlinked directories, hook scripts) and the file tools' decision in every mode.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const os = __importStar(require("node:os"));
const path = __importStar(require("node:path"));
const context_1 = require("../../src/engine/context");
const permissions_1 = require("../../src/permissions");
const paths_1 = require("../../src/permissions/paths");
const protectedPaths_1 = require("../../src/permissions/protectedPaths");
const builtin_1 = require("../../src/tools/builtin");
const permissionTypes_1 = require("../../src/tools/permissionTypes");
let root = '';
let proj = '';
let extra = '';
let outside = '';
(0, node_test_1.before)(async () => {
    strict_1.default.equal(await (0, permissions_1.loadShellParser)(), true);
    root = await node_fs_1.promises.realpath(await node_fs_1.promises.mkdtemp(path.join(os.tmpdir(), 'protect-')));
    proj = path.join(root, 'proj');
    extra = path.join(root, 'extra');
    outside = path.join(root, 'outside');
    for (const d of [
        proj,
        extra,
        outside,
        path.join(proj, 'src'),
        path.join(proj, '.claude', 'hooks'),
        path.join(proj, '.git', 'hooks'),
        path.join(proj, 'scripts'),
    ]) {
        await node_fs_1.promises.mkdir(d, { recursive: true });
    }
    await node_fs_1.promises.writeFile(path.join(proj, '.claude', 'settings.json'), '{}');
    await node_fs_1.promises.writeFile(path.join(proj, 'package.json'), '{}');
    await node_fs_1.promises.writeFile(path.join(proj, 'scripts', 'check.sh'), 'true');
    // A symlinked directory that leads into .claude, and one that leads into another project's .git.
    await node_fs_1.promises.symlink(path.join(proj, '.claude'), path.join(proj, 'innocent'));
    await node_fs_1.promises.symlink(path.join(proj, '.git'), path.join(extra, 'gitlink'));
});
/** Protected in any form, as the decision checks it. */
function prot(p, dirs = [proj, extra], cwd = proj, opts = {}) {
    return (0, protectedPaths_1.protectedReasonOfForms)((0, permissions_1.pathForms)(p, cwd), (0, paths_1.workingDirForms)(dirs), opts) !== undefined;
}
(0, node_test_1.test)('protected paths: the reference list, spellings and case', () => {
    for (const p of [
        '.claude/settings.json',
        '.claude/settings.local.json',
        '.claude/agents/evil.md',
        '.claude/commands/x.md',
        '.claude/hooks/pre.sh',
        '.claude/skills/s/SKILL.md',
        '.claude',
        '.durable-agent/settings.json',
        '.durable-agent',
        '.mcp.json',
        '.git/config',
        '.git/hooks/pre-commit',
        '.git/HEAD',
        '.gitmodules',
        '.gitconfig',
        '.bashrc',
        '.zshrc',
        '.profile',
        '.envrc',
        '.vscode/tasks.json',
        '.idea/workspace.xml',
        '.husky/pre-commit',
        '.config/git/config',
        'sub/.git/config',
        'sub/deeper/.claude/settings.json',
        '.npmrc',
        '.pre-commit-config.yaml',
        // spellings
        '.Claude/Settings.json',
        '.CLAUDE/settings.JSON',
        './.claude//settings.json',
        '.claude/../.claude/settings.json',
        'src/../.mcp.json',
        '.GIT/config',
        '.claude./settings.json',
        `${proj}/.claude/settings.json`,
        // through a symlinked directory
        'innocent/settings.json',
        'innocent/hooks/x.sh',
    ]) {
        strict_1.default.equal(prot(p), true, `${p} must be protected`);
    }
    for (const p of [
        'src/a.ts',
        'CLAUDE.md',
        'README.md',
        'package.json',
        'claude/settings.json',
        '.claudex/settings.json',
        'src/.gitignore',
        '.gitignore',
        '.github/workflows/ci.yml',
        '.claude/worktrees/feature/src/a.ts',
    ]) {
        strict_1.default.equal(prot(p), false, `${p} must not be protected`);
    }
    // below .claude/worktrees the rest of the path is checked again
    strict_1.default.equal(prot('.claude/worktrees/feature/.git/config'), true);
    strict_1.default.match((0, protectedPaths_1.protectedReason)(path.join(proj, '.claude/settings.json'), [proj]), /\.claude is protected/);
});
(0, node_test_1.test)('protected paths: every working directory counts, never the process cwd', () => {
    // In the additional directory too, and through a link from it into the project's .git.
    strict_1.default.equal(prot(path.join(extra, '.mcp.json')), true);
    strict_1.default.equal(prot(path.join(extra, '.claude', 'settings.json')), true);
    strict_1.default.equal(prot(path.join(extra, 'gitlink', 'config')), true);
    strict_1.default.equal(prot(path.join(extra, 'notes.txt')), false);
    // Relative paths are the session cwd's, whatever the worker's process.cwd() is.
    const before = process.cwd();
    process.chdir(outside);
    try {
        strict_1.default.equal(prot('.claude/settings.json', [proj], proj), true);
        strict_1.default.equal((0, protectedPaths_1.isProtectedPath)(path.join(proj, '.claude/settings.json'), [proj]), true);
    }
    finally {
        process.chdir(before);
    }
    // A working directory that is itself under a protected name is the user's choice: only the part below it counts.
    const cargoProject = path.join(root, '.cargo', 'registry', 'crate');
    strict_1.default.equal((0, protectedPaths_1.isProtectedPath)(path.join(cargoProject, 'src/lib.rs'), [cargoProject]), false);
    strict_1.default.equal((0, protectedPaths_1.isProtectedPath)(path.join(cargoProject, '.git/config'), [cargoProject]), true);
    // Outside every working directory the whole path is checked (home's start-up files).
    strict_1.default.equal((0, protectedPaths_1.isProtectedPath)(path.join(os.homedir(), '.bashrc'), [proj]), true);
    strict_1.default.equal((0, protectedPaths_1.isProtectedPath)(path.join(os.homedir(), '.claude', 'settings.json'), [proj]), true);
    strict_1.default.equal((0, protectedPaths_1.isProtectedPath)(path.join(os.homedir(), 'notes.txt'), [proj]), false);
});
(0, node_test_1.test)('protected paths: the files hooks run (words naming paths, task runners)', () => {
    const hooks = [
        { command: '"$CLAUDE_PROJECT_DIR"/scripts/check.sh --fast' },
        { command: 'npm run lint && make -C . fmt' },
        { command: 'python3 tools/new_hook.py' },
        { command: 'node', args: ['${CLAUDE_PROJECT_DIR}/hooks/x.mjs'] },
        { command: '/usr/bin/true ../outside/x.sh' },
        { command: 'echo hello' },
    ];
    const files = (0, protectedPaths_1.hookControlFiles)(hooks, proj, [proj, extra]);
    for (const f of ['scripts/check.sh', 'package.json', 'Makefile', 'tools/new_hook.py', 'hooks/x.mjs']) {
        strict_1.default.ok(files.includes(path.join(proj, f)), `${f} is a hook's file: ${files.join(', ')}`);
    }
    strict_1.default.ok(!files.some((f) => f.startsWith(outside)), 'outside the working directories: not listed (not writable anyway)');
    strict_1.default.ok(!files.includes(path.join(proj, 'hello')));
    strict_1.default.equal((0, protectedPaths_1.isProtectedPath)(path.join(proj, 'package.json'), [proj], { extra: files }), true);
    strict_1.default.equal((0, protectedPaths_1.isProtectedPath)(path.join(proj, 'Package.JSON'), [proj], { extra: files }), true);
    strict_1.default.equal((0, protectedPaths_1.isProtectedPath)(path.join(proj, 'src/a.ts'), [proj], { extra: files }), false);
    // The concrete list at every working directory, for the sandbox and the reports.
    const cf = (0, protectedPaths_1.controlFiles)([proj, extra], { extra: files });
    for (const d of [proj, extra]) {
        for (const f of [
            '.claude/settings.json',
            '.claude/settings.local.json',
            '.durable-agent/settings.json',
            '.mcp.json',
            '.git/config',
            '.gitmodules',
            '.bashrc',
            '.envrc',
        ]) {
            strict_1.default.ok(cf.files.includes(path.join(d, f)), `${d}/${f}`);
        }
        for (const f of ['.claude', '.durable-agent', '.vscode', '.idea', '.git/hooks'])
            strict_1.default.ok(cf.directories.includes(path.join(d, f)), `${d}/${f}`);
    }
    strict_1.default.ok(cf.files.includes(path.join(proj, 'scripts/check.sh')));
});
// ---- the file tools' decision, every mode ------------------------------------------------------
function ctx(mode, rules = {}, controlFiles) {
    return {
        sessionId: 's',
        toolUseId: 'id',
        idempotencyKey: 's/id',
        agent: { ...(0, context_1.initialContext)(proj), additionalDirectories: [extra] },
        permission: {
            mode,
            rules: { allow: [], ask: [], deny: [], ...rules },
            workingDirectories: [proj, extra],
            ...(controlFiles ? { controlFiles } : {}),
        },
        abortSignal: new AbortController().signal,
    };
}
const PROTECTED_TARGETS = [
    '.claude/settings.json',
    '.claude/settings.local.json',
    '.claude/agents/a.md',
    '.claude/hooks/pre.sh',
    '.durable-agent/settings.json',
    '.mcp.json',
    '.git/config',
    '.git/hooks/pre-commit',
    '.gitmodules',
    '.bashrc',
    '.envrc',
    '.vscode/tasks.json',
    '.Claude/Settings.json',
    'innocent/settings.json',
    `${extra}/.mcp.json`,
];
const EXPECTED = {
    default: 'ask',
    acceptEdits: 'ask',
    plan: 'deny',
    dontAsk: 'deny',
    bypassPermissions: 'allow',
};
(0, node_test_1.test)('file tools: a write to a protected path asks (default, acceptEdits), is denied (plan, dontAsk), runs in bypassPermissions', async () => {
    for (const mode of permissionTypes_1.PERMISSION_MODES) {
        for (const tool of [builtin_1.WriteTool, builtin_1.EditTool]) {
            for (const target of PROTECTED_TARGETS) {
                const input = tool === builtin_1.WriteTool
                    ? { file_path: target, content: 'x' }
                    : { file_path: target, old_string: 'a', new_string: 'b' };
                const d = await (0, permissions_1.decidePermission)(tool, input, ctx(mode));
                strict_1.default.equal(d.behavior, EXPECTED[mode], `${mode} ${tool.name} ${target}: ${JSON.stringify(d)}`);
                if (mode === 'default' || mode === 'acceptEdits') {
                    strict_1.default.match(d.message, /sensitive file/);
                    strict_1.default.equal(d.decisionReason?.type, 'safetyCheck');
                }
                if (mode === 'dontAsk')
                    strict_1.default.match(d.message, /sensitive file.*dontAsk/s);
            }
            // An ordinary file: acceptEdits and bypass write it unasked.
            const ordinary = tool === builtin_1.WriteTool
                ? { file_path: 'src/a.ts', content: 'x' }
                : { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' };
            const d = await (0, permissions_1.decidePermission)(tool, ordinary, ctx(mode));
            strict_1.default.equal(d.behavior, { default: 'ask', acceptEdits: 'allow', plan: 'deny', dontAsk: 'deny', bypassPermissions: 'allow' }[mode], `${mode} ${tool.name} src/a.ts`);
        }
    }
});
(0, node_test_1.test)('file tools: neither an allow rule nor a hook allow lifts the ask; a deny rule still denies; CLAUDE.md is ordinary', async () => {
    const write = (p) => ({ file_path: p, content: 'x' });
    for (const rule of ['Edit(.claude/**)', 'Write(./.mcp.json)', 'Edit', 'Write', 'Edit(//**)']) {
        for (const p of ['.claude/settings.json', '.mcp.json']) {
            const d = await (0, permissions_1.decidePermission)(builtin_1.WriteTool, write(p), ctx('acceptEdits', { allow: [rule] }));
            strict_1.default.equal(d.behavior, 'ask', `${rule} must not lift ${p}`);
        }
    }
    const hookAllow = { behavior: 'allow', hook: 'approve-all.sh' };
    strict_1.default.equal((await (0, permissions_1.decidePermission)(builtin_1.WriteTool, write('.claude/settings.json'), ctx('default'), hookAllow)).behavior, 'ask');
    strict_1.default.equal((await (0, permissions_1.decidePermission)(builtin_1.WriteTool, write('.claude/settings.json'), ctx('dontAsk'), hookAllow)).behavior, 'deny');
    strict_1.default.equal((await (0, permissions_1.decidePermission)(builtin_1.WriteTool, write('.mcp.json'), ctx('bypassPermissions', { deny: ['Write(.mcp.json)'] })))
        .behavior, 'deny');
    strict_1.default.equal((await (0, permissions_1.decidePermission)(builtin_1.WriteTool, write('CLAUDE.md'), ctx('acceptEdits'))).behavior, 'allow');
    // Reading a protected file is not writing it.
    const { ReadTool } = await Promise.resolve().then(() => __importStar(require('../../src/tools/builtin')));
    strict_1.default.equal((await (0, permissions_1.decidePermission)(ReadTool, { file_path: '.claude/settings.json' }, ctx('default'))).behavior, 'allow');
});
(0, node_test_1.test)('file tools: the scripts the session hooks run are protected like settings', async () => {
    const files = (0, protectedPaths_1.hookControlFiles)([{ command: '$CLAUDE_PROJECT_DIR/scripts/check.sh' }, { command: 'npm run lint' }], proj, [proj]);
    for (const p of ['scripts/check.sh', 'package.json']) {
        const d = await (0, permissions_1.decidePermission)(builtin_1.WriteTool, { file_path: p, content: 'x' }, ctx('acceptEdits', {}, files));
        strict_1.default.equal(d.behavior, 'ask', p);
        strict_1.default.match(d.message, /hook/);
        strict_1.default.equal((await (0, permissions_1.decidePermission)(builtin_1.WriteTool, { file_path: p, content: 'x' }, ctx('acceptEdits'))).behavior, 'allow', `${p} without the hook`);
    }
});
(0, node_test_1.test)('unsandboxed Bash in acceptEdits: mkdir/touch/mv/cp/rm on a protected path, or a directory holding one, is not auto-allowed', async () => {
    const env = { cwd: proj, workingDirectories: [proj, extra] };
    for (const cmd of [
        'touch .claude/settings.json',
        'mkdir -p .claude/hooks',
        'cp /dev/null .mcp.json',
        'mv src/a.ts .git/hooks/pre-commit',
        'rm .claude/settings.json',
        'mkdir .vscode',
        'touch .Claude/settings.local.json',
        'touch innocent/settings.json',
        `touch ${extra}/.envrc`,
        'rm -r scripts/../.claude',
        'cp -r . ../copy',
    ]) {
        strict_1.default.equal((0, permissions_1.fsCommandsInside)(cmd, env), false, cmd);
    }
    strict_1.default.equal((0, permissions_1.fsCommandsInside)('touch scripts/check.sh', env, [path.join(proj, 'scripts/check.sh')]), false, 'a hook script');
    strict_1.default.equal((0, permissions_1.fsCommandsInside)('touch scripts/check.sh', env), true);
    strict_1.default.equal((0, permissions_1.fsCommandsInside)('mkdir -p src/new && touch src/new/a.ts', env), true);
    // A directory that holds a protected entry: moving or removing it touches that entry.
    await node_fs_1.promises.mkdir(path.join(proj, 'vendor', 'lib', '.git'), { recursive: true });
    strict_1.default.equal((0, permissions_1.fsCommandsInside)('rm -r vendor', env), false);
    strict_1.default.equal((0, permissions_1.fsCommandsInside)('mv vendor vendor2', env), false);
    strict_1.default.equal((0, permissions_1.fsCommandsInside)('rm -r src', env), true);
});
//# sourceMappingURL=protected-paths.test.js.map