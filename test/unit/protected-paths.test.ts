// The protected paths (src/permissions/protectedPaths.ts): the definition (spellings, every working
// directory, symlinked directories, hook scripts) and the file tools' decision in every mode.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { initialContext } from '../../src/core/context';
import {
  decidePermission,
  fsCommandsInside,
  loadShellParser,
  pathForms,
  type HookPermissionDecision,
} from '../../src/permissions';
import { workingDirForms } from '../../src/permissions/paths';
import {
  controlFiles,
  hookControlFiles,
  isProtectedPath,
  protectedReason,
  protectedReasonOfForms,
} from '../../src/permissions/protectedPaths';
import { EditTool, WriteTool } from '../../src/tools';
import type { ToolUseContext } from '../../src/toolProtocol/Tool';
import {
  PERMISSION_MODES,
  type PermissionMode,
  type ToolPermissionContext,
} from '../../src/toolProtocol/permissionTypes';

let root = '';
let proj = '';
let extra = '';
let outside = '';

before(async () => {
  assert.equal(await loadShellParser(), true);
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'protect-')));
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
    await fs.mkdir(d, { recursive: true });
  }
  await fs.writeFile(path.join(proj, '.claude', 'settings.json'), '{}');
  await fs.writeFile(path.join(proj, 'package.json'), '{}');
  await fs.writeFile(path.join(proj, 'scripts', 'check.sh'), 'true');
  // A symlinked directory that leads into .claude, and one that leads into another project's .git.
  await fs.symlink(path.join(proj, '.claude'), path.join(proj, 'innocent'));
  await fs.symlink(path.join(proj, '.git'), path.join(extra, 'gitlink'));
});

/** Protected in any form, as the decision checks it. */
function prot(p: string, dirs: string[] = [proj, extra], cwd = proj, opts = {}): boolean {
  return protectedReasonOfForms(pathForms(p, cwd), workingDirForms(dirs), opts) !== undefined;
}

test('protected paths: the reference list, spellings and case', () => {
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
    assert.equal(prot(p), true, `${p} must be protected`);
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
    assert.equal(prot(p), false, `${p} must not be protected`);
  }
  // below .claude/worktrees the rest of the path is checked again
  assert.equal(prot('.claude/worktrees/feature/.git/config'), true);
  assert.match(protectedReason(path.join(proj, '.claude/settings.json'), [proj])!, /\.claude is protected/);
});

test('protected paths: every working directory counts, never the process cwd', () => {
  // In the additional directory too, and through a link from it into the project's .git.
  assert.equal(prot(path.join(extra, '.mcp.json')), true);
  assert.equal(prot(path.join(extra, '.claude', 'settings.json')), true);
  assert.equal(prot(path.join(extra, 'gitlink', 'config')), true);
  assert.equal(prot(path.join(extra, 'notes.txt')), false);
  // Relative paths are the session cwd's, whatever the worker's process.cwd() is.
  const before = process.cwd();
  process.chdir(outside);
  try {
    assert.equal(prot('.claude/settings.json', [proj], proj), true);
    assert.equal(isProtectedPath(path.join(proj, '.claude/settings.json'), [proj]), true);
  } finally {
    process.chdir(before);
  }
  // A working directory that is itself under a protected name is the user's choice: only the part below it counts.
  const cargoProject = path.join(root, '.cargo', 'registry', 'crate');
  assert.equal(isProtectedPath(path.join(cargoProject, 'src/lib.rs'), [cargoProject]), false);
  assert.equal(isProtectedPath(path.join(cargoProject, '.git/config'), [cargoProject]), true);
  // Outside every working directory the whole path is checked (home's start-up files).
  assert.equal(isProtectedPath(path.join(os.homedir(), '.bashrc'), [proj]), true);
  assert.equal(isProtectedPath(path.join(os.homedir(), '.claude', 'settings.json'), [proj]), true);
  assert.equal(isProtectedPath(path.join(os.homedir(), 'notes.txt'), [proj]), false);
});

test('protected paths: the files hooks run (words naming paths, task runners)', () => {
  const hooks = [
    { command: '"$CLAUDE_PROJECT_DIR"/scripts/check.sh --fast' },
    { command: 'npm run lint && make -C . fmt' },
    { command: 'python3 tools/new_hook.py' },
    { command: 'node', args: ['${CLAUDE_PROJECT_DIR}/hooks/x.mjs'] },
    { command: '/usr/bin/true ../outside/x.sh' },
    { command: 'echo hello' },
  ];
  const files = hookControlFiles(hooks, proj, [proj, extra]);
  for (const f of ['scripts/check.sh', 'package.json', 'Makefile', 'tools/new_hook.py', 'hooks/x.mjs']) {
    assert.ok(files.includes(path.join(proj, f)), `${f} is a hook's file: ${files.join(', ')}`);
  }
  assert.ok(
    !files.some((f) => f.startsWith(outside)),
    'outside the working directories: not listed (not writable anyway)',
  );
  assert.ok(!files.includes(path.join(proj, 'hello')));
  assert.equal(isProtectedPath(path.join(proj, 'package.json'), [proj], { extra: files }), true);
  assert.equal(isProtectedPath(path.join(proj, 'Package.JSON'), [proj], { extra: files }), true);
  assert.equal(isProtectedPath(path.join(proj, 'src/a.ts'), [proj], { extra: files }), false);
  // The concrete list at every working directory, for the sandbox and the reports.
  const cf = controlFiles([proj, extra], { extra: files });
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
      assert.ok(cf.files.includes(path.join(d, f)), `${d}/${f}`);
    }
    for (const f of ['.claude', '.durable-agent', '.vscode', '.idea', '.git/hooks'])
      assert.ok(cf.directories.includes(path.join(d, f)), `${d}/${f}`);
  }
  assert.ok(cf.files.includes(path.join(proj, 'scripts/check.sh')));
});

// ---- the file tools' decision, every mode ------------------------------------------------------

function ctx(
  mode: PermissionMode,
  rules: Partial<ToolPermissionContext['rules']> = {},
  controlFiles?: string[],
): ToolUseContext {
  return {
    sessionId: 's',
    toolUseId: 'id',
    idempotencyKey: 's/id',
    agent: { ...initialContext(proj), additionalDirectories: [extra] },
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

const EXPECTED: Record<PermissionMode, 'ask' | 'deny' | 'allow'> = {
  default: 'ask',
  acceptEdits: 'ask',
  plan: 'deny',
  dontAsk: 'deny',
  bypassPermissions: 'allow',
};

test('file tools: a write to a protected path asks (default, acceptEdits), is denied (plan, dontAsk), runs in bypassPermissions', async () => {
  for (const mode of PERMISSION_MODES) {
    for (const tool of [WriteTool, EditTool]) {
      for (const target of PROTECTED_TARGETS) {
        const input =
          tool === WriteTool
            ? { file_path: target, content: 'x' }
            : { file_path: target, old_string: 'a', new_string: 'b' };
        const d = await decidePermission(tool, input, ctx(mode));
        assert.equal(d.behavior, EXPECTED[mode], `${mode} ${tool.name} ${target}: ${JSON.stringify(d)}`);
        if (mode === 'default' || mode === 'acceptEdits') {
          assert.match((d as { message: string }).message, /sensitive file/);
          assert.equal(d.decisionReason?.type, 'safetyCheck');
        }
        if (mode === 'dontAsk') assert.match((d as { message: string }).message, /sensitive file.*dontAsk/s);
      }
      // An ordinary file: acceptEdits and bypass write it unasked.
      const ordinary =
        tool === WriteTool
          ? { file_path: 'src/a.ts', content: 'x' }
          : { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' };
      const d = await decidePermission(tool, ordinary, ctx(mode));
      assert.equal(
        d.behavior,
        { default: 'ask', acceptEdits: 'allow', plan: 'deny', dontAsk: 'deny', bypassPermissions: 'allow' }[mode],
        `${mode} ${tool.name} src/a.ts`,
      );
    }
  }
});

test('file tools: neither an allow rule nor a hook allow lifts the ask; a deny rule still denies; CLAUDE.md is ordinary', async () => {
  const write = (p: string) => ({ file_path: p, content: 'x' });
  for (const rule of ['Edit(.claude/**)', 'Write(./.mcp.json)', 'Edit', 'Write', 'Edit(//**)']) {
    for (const p of ['.claude/settings.json', '.mcp.json']) {
      const d = await decidePermission(WriteTool, write(p), ctx('acceptEdits', { allow: [rule] }));
      assert.equal(d.behavior, 'ask', `${rule} must not lift ${p}`);
    }
  }
  const hookAllow: HookPermissionDecision = { behavior: 'allow', hook: 'approve-all.sh' };
  assert.equal(
    (await decidePermission(WriteTool, write('.claude/settings.json'), ctx('default'), hookAllow)).behavior,
    'ask',
  );
  assert.equal(
    (await decidePermission(WriteTool, write('.claude/settings.json'), ctx('dontAsk'), hookAllow)).behavior,
    'deny',
  );
  assert.equal(
    (await decidePermission(WriteTool, write('.mcp.json'), ctx('bypassPermissions', { deny: ['Write(.mcp.json)'] })))
      .behavior,
    'deny',
  );
  assert.equal((await decidePermission(WriteTool, write('CLAUDE.md'), ctx('acceptEdits'))).behavior, 'allow');
  // Reading a protected file is not writing it.
  const { ReadTool } = await import('../../src/tools');
  assert.equal(
    (await decidePermission(ReadTool, { file_path: '.claude/settings.json' }, ctx('default'))).behavior,
    'allow',
  );
});

test('file tools: the scripts the session hooks run are protected like settings', async () => {
  const files = hookControlFiles(
    [{ command: '$CLAUDE_PROJECT_DIR/scripts/check.sh' }, { command: 'npm run lint' }],
    proj,
    [proj],
  );
  for (const p of ['scripts/check.sh', 'package.json']) {
    const d = await decidePermission(WriteTool, { file_path: p, content: 'x' }, ctx('acceptEdits', {}, files));
    assert.equal(d.behavior, 'ask', p);
    assert.match((d as { message: string }).message, /hook/);
    assert.equal(
      (await decidePermission(WriteTool, { file_path: p, content: 'x' }, ctx('acceptEdits'))).behavior,
      'allow',
      `${p} without the hook`,
    );
  }
});

test('unsandboxed Bash in acceptEdits: mkdir/touch/mv/cp/rm on a protected path, or a directory holding one, is not auto-allowed', async () => {
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
    assert.equal(fsCommandsInside(cmd, env), false, cmd);
  }
  assert.equal(
    fsCommandsInside('touch scripts/check.sh', env, [path.join(proj, 'scripts/check.sh')]),
    false,
    'a hook script',
  );
  assert.equal(fsCommandsInside('touch scripts/check.sh', env), true);
  assert.equal(fsCommandsInside('mkdir -p src/new && touch src/new/a.ts', env), true);
  // A directory that holds a protected entry: moving or removing it touches that entry.
  await fs.mkdir(path.join(proj, 'vendor', 'lib', '.git'), { recursive: true });
  assert.equal(fsCommandsInside('rm -r vendor', env), false);
  assert.equal(fsCommandsInside('mv vendor vendor2', env), false);
  assert.equal(fsCommandsInside('rm -r src', env), true);
});
