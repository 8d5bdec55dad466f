// unit: hooks do not follow the agent (issue 30, class 4; DESIGN invariants 13 and 15). Command hooks
// run from the session's project root (its start directory), with CLAUDE_PROJECT_DIR = that root,
// whatever `cd` the agent made; the files they run are protected relative to that root; they are
// pinned by content at the session's start (a changed one is not run; a refused PreToolUse hook
// blocks its call); their environment is the door's allowlist, not the worker's. Oracles: marker
// files (which script ran, and where), the hook's own dump of its environment and directory.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { startFakeAnthropic, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { runLocalSession } from '../../src/inprocess/runSession';
import { applyContextModifiers, initialContext, sessionRootOf } from '../../src/core/context';
import { runToolPipeline } from '../../src/toolCall/pipeline';
import { runSessionEventHooks } from '../../src/hooks';
import { pinHooks } from '../../src/hooks/pins';
import type { HooksConfig } from '../../src/hooks/types';
import { sessionPermission } from '../../src/toolCall/toolSession';
import { sessionInput } from '../../src/sessionInput';
import type { ResultStore } from '../../src/toolProtocol/Tool';
import { calls, makeEnv, use } from './pipelineFixtures';
import { makeTmpDir, removeDir } from './tools-harness';
import { withEnv } from '../support/bait';

let tmp = '';
before(async () => {
  tmp = await makeTmpDir('da-hooks-root-');
});
after(async () => {
  if (tmp) await removeDir(tmp);
});

const BAIT: Record<string, string> = {
  ANTHROPIC_API_KEY: 'sk-ant-bait-hooks-root-1',
  DATABASE_URL: 'postgres://bait:hooks-root-2@db/prod',
  CLAUDE_CODE_OAUTH_TOKEN: 'oauth-bait-hooks-root-3',
};

async function writeExec(p: string, body: string): Promise<void> {
  await fs.mkdir(path.dirname(p), { recursive: true });
  await fs.writeFile(p, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
}

/**
 * A project whose root has the real hook scripts (`npm run lint`, `.claude/hooks/check.sh`,
 * `.claude/hooks/post.sh`), each leaving `<name>-ran.txt` = `root` in the directory it runs in, and
 * a subdirectory `packages/x` with planted copies that leave `planted` there and in `<tmp>/<name>-PLANTED`.
 */
async function project(name: string): Promise<{ root: string; sub: string; planted: string }> {
  const root = path.join(tmp, name);
  const sub = path.join(root, 'packages', 'x');
  const planted = path.join(tmp, `${name}-PLANTED`);
  await fs.mkdir(sub, { recursive: true });
  await fs.writeFile(
    path.join(root, 'package.json'),
    JSON.stringify({ name: 'root', private: true, scripts: { lint: 'echo root > lint-ran.txt' } }),
  );
  await writeExec(
    path.join(root, '.claude', 'hooks', 'check.sh'),
    'cat > hook-input.json; pwd > hook-pwd.txt; printf %s "$CLAUDE_PROJECT_DIR" > hook-project-dir.txt; env > hook-env.txt; echo root > check-ran.txt',
  );
  await writeExec(path.join(root, '.claude', 'hooks', 'post.sh'), 'cat >/dev/null; echo root > post-ran.txt');
  // What the agent planted where it then cd's to.
  await fs.writeFile(
    path.join(sub, 'package.json'),
    JSON.stringify({ name: 'x', scripts: { lint: `echo planted > lint-ran.txt; echo lint >> '${planted}'` } }),
  );
  await writeExec(
    path.join(sub, '.claude', 'hooks', 'check.sh'),
    `cat >/dev/null; echo planted > check-ran.txt; env > '${planted}.env'; echo check >> '${planted}'`,
  );
  await writeExec(
    path.join(sub, '.claude', 'hooks', 'post.sh'),
    `cat >/dev/null; echo planted > post-ran.txt; echo post >> '${planted}'`,
  );
  return { root, sub, planted };
}

const HOOKS = {
  Stop: [
    {
      hooks: [
        { type: 'command' as const, command: 'npm run --silent lint' },
        { type: 'command' as const, command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh' },
      ],
    },
  ],
  PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command' as const, command: 'sh .claude/hooks/post.sh' }] }],
};

const withBait = <T>(f: () => Promise<T>): Promise<T> => withEnv({ ...BAIT, HOOKS_ROOT_PASS: 'passed-on-purpose' }, f);

test('unit hooks root: sessionRootOf is the start directory after cd, EnterWorktree, cd inside it and ExitWorktree', () => {
  const start = initialContext('/p');
  const cd = applyContextModifiers(start, [{ type: 'setCwd', cwd: '/p/packages/x' }]);
  assert.equal(sessionRootOf(start), '/p');
  assert.equal(sessionRootOf(cd), '/p');
  const wt = { path: '/w/t', created: true, repoRoot: '/p' };
  for (const before of [start, cd]) {
    const inWt = applyContextModifiers(before, [
      { type: 'worktreeEntered', worktree: wt },
      { type: 'setCwd', cwd: '/w/t/sub' },
      { type: 'worktreeEntered', worktree: { ...wt, path: '/w/u' } },
    ]);
    assert.equal(inWt.cwd, '/w/u');
    assert.equal(sessionRootOf(inWt), '/p');
    const out = applyContextModifiers(inWt, [{ type: 'worktreeExited' }, { type: 'setCwd', cwd: '/p/a' }]);
    assert.equal(sessionRootOf(out), '/p');
  }
});

test("unit hooks root: in-process session — after `cd packages/x` (planted package.json and .claude/hooks there) Stop and PostToolUse hooks run the root's scripts from the root, CLAUDE_PROJECT_DIR = root, input cwd = packages/x, no worker secret in their environment", async () => {
  const { root, sub, planted } = await project('session');
  const store = await makeTmpDir('da-hooks-root-store-');
  const fake = await startFakeAnthropic();
  try {
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_cd', name: 'Bash', input: { command: 'cd packages/x' } }]),
      textResponse('done'),
    );
    const result = await withBait(() =>
      runLocalSession(
        {
          prompt: 'work in packages/x',
          cwd: root,
          tools: ['Bash', 'Read'],
          permissionMode: 'bypassPermissions',
          sandbox: { enabled: false, passEnv: ['HOOKS_ROOT_PASS'] },
          hooks: HOOKS,
          model: { model: 'claude-test', maxTokens: 256 },
        },
        { storeDir: store, anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
      ),
    );
    assert.equal(result.status, 'completed', result.endReason);
    assert.equal(result.context.cwd, sub, 'the agent is in packages/x');
    assert.equal(
      existsSync(planted),
      false,
      `no planted script ran: ${existsSync(planted) ? readFileSync(planted, 'utf8') : ''}`,
    );
    for (const marker of ['lint-ran.txt', 'check-ran.txt', 'post-ran.txt']) {
      assert.equal(
        readFileSync(path.join(root, marker), 'utf8').trim(),
        'root',
        `${marker}: the root's script ran in the root`,
      );
      assert.equal(existsSync(path.join(sub, marker)), false, `${marker}: nothing ran in packages/x`);
    }
    assert.equal(readFileSync(path.join(root, 'hook-pwd.txt'), 'utf8').trim(), root);
    assert.equal(readFileSync(path.join(root, 'hook-project-dir.txt'), 'utf8'), root);
    const input = JSON.parse(readFileSync(path.join(root, 'hook-input.json'), 'utf8')) as { cwd: string };
    assert.equal(input.cwd, sub, "the hook input's cwd is the agent's current directory (the reference's field)");
    const env = readFileSync(path.join(root, 'hook-env.txt'), 'utf8');
    for (const [k, v] of Object.entries(BAIT)) {
      assert.equal(env.includes(v), false, `${k}'s value is not in the hook's environment`);
      assert.equal(new RegExp(`^${k}=`, 'm').test(env), false, `${k} is not in the hook's environment`);
    }
    assert.match(env, /^HOOKS_ROOT_PASS=passed-on-purpose$/m, 'sandbox.passEnv reaches hooks');
    assert.match(env, new RegExp(`^CLAUDE_PROJECT_DIR=${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
  } finally {
    await fake.close();
    await removeDir(store);
  }
});

test('unit hooks root: a pinned hook script changed after the start is not run (in-process session, bypassPermissions Write), and its run names the file', async () => {
  const { root } = await project('pinned');
  const check = path.join(root, '.claude', 'hooks', 'check.sh');
  const changedMarker = path.join(tmp, 'pinned-CHANGED-RAN');
  const store = await makeTmpDir('da-hooks-root-store-');
  const fake = await startFakeAnthropic();
  try {
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_r', name: 'Read', input: { file_path: check } }]),
      toolUseResponse([
        {
          id: 'toolu_w',
          name: 'Write',
          input: { file_path: check, content: `#!/bin/sh\necho changed > '${changedMarker}'\n` },
        },
      ]),
      textResponse('done'),
    );
    const result = await runLocalSession(
      {
        prompt: 'change the hook',
        cwd: root,
        tools: ['Read', 'Write'],
        permissionMode: 'bypassPermissions',
        sandbox: { enabled: false },
        hooks: { Stop: [{ hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh' }] }] },
        model: { model: 'claude-test', maxTokens: 256 },
      },
      { storeDir: store, anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
    );
    assert.equal(result.status, 'completed', result.endReason);
    assert.match(readFileSync(check, 'utf8'), /changed/, 'bypassPermissions wrote the script');
    assert.equal(existsSync(changedMarker), false, 'the changed script never ran in this session');
    assert.equal(existsSync(path.join(root, 'check-ran.txt')), false, 'nor did anything else in its place');
  } finally {
    await fake.close();
    await removeDir(store);
  }
  // The same refusal, read from the run: a non-blocking error naming the file.
  const hooks: HooksConfig = {
    Stop: [{ hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh' }] }],
  };
  await fs.writeFile(check, '#!/bin/sh\necho root > check-ran.txt\n', { mode: 0o755 });
  const pins = pinHooks(hooks, root, [root]);
  assert.deepEqual(Object.keys(pins.commands['"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh'] ?? {}), [check]);
  await fs.writeFile(check, `#!/bin/sh\necho changed > '${changedMarker}'\n`, { mode: 0o755 });
  const runs = await runSessionEventHooks(
    { session_id: 's', cwd: root, permission_mode: 'default', hook_event_name: 'Stop', stop_hook_active: false },
    { config: hooks, projectDir: root, pins },
  );
  assert.equal(runs[0]?.outcome, 'non_blocking_error');
  assert.deepEqual(runs[0]?.pinChanged, [check]);
  assert.match(
    runs[0]?.error ?? '',
    /changed since the session started: .*check\.sh \(modified\).*only as they were at its start/,
  );
  assert.equal(existsSync(changedMarker), false);
  // A pinned file that appears later counts too (`absent` was pinned).
  const later = path.join(root, 'later.sh');
  const laterHooks: HooksConfig = { Stop: [{ hooks: [{ type: 'command', command: 'sh ./later.sh' }] }] };
  const laterPins = pinHooks(laterHooks, root, [root]);
  assert.equal(laterPins.commands['sh ./later.sh']?.[later], 'absent');
  await writeExec(later, `echo ran > '${changedMarker}'`);
  const r2 = await runSessionEventHooks(
    { session_id: 's', cwd: root, permission_mode: 'default', hook_event_name: 'Stop', stop_hook_active: false },
    { config: laterHooks, projectDir: root, pins: laterPins },
  );
  assert.deepEqual(r2[0]?.pinChanged, [later]);
  assert.match(r2[0]?.error ?? '', /later\.sh \(created\)/);
  assert.equal(existsSync(changedMarker), false);
});

test('unit hooks root: a refused PreToolUse hook blocks its call (fail closed): the tool does not run, nor does the hook', async () => {
  const { root } = await project('pretool');
  const guard = path.join(root, '.claude', 'hooks', 'guard.sh');
  const guardRan = path.join(tmp, 'pretool-GUARD-RAN');
  await writeExec(guard, `cat >/dev/null; echo ran >> '${guardRan}'; exit 0`);
  const hooks: HooksConfig = {
    PreToolUse: [
      { matcher: 'WriteFile', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh' }] },
    ],
  };
  const hookPins = pinHooks(hooks, root, [root]);
  // Unchanged: the hook runs and the call goes through.
  calls.length = 0;
  const ok = await runToolPipeline(
    use('WriteFile', { file_path: path.join(root, 'a.txt'), content: 'a' }),
    makeEnv(root, { hooks, hookPins, mode: 'bypassPermissions' }),
  );
  assert.equal(ok.status, 'ok');
  assert.equal(readFileSync(guardRan, 'utf8'), 'ran\n');
  assert.equal(readFileSync(path.join(root, 'a.txt'), 'utf8'), 'a');
  // Changed since the start (say, to a script that allows everything): neither the hook nor the call runs.
  await writeExec(guard, `cat >/dev/null; echo changed >> '${guardRan}'; echo '{"decision":"approve"}'`);
  const blocked = await runToolPipeline(
    use('WriteFile', { file_path: path.join(root, 'b.txt'), content: 'b' }),
    makeEnv(root, { hooks, hookPins, mode: 'bypassPermissions' }),
  );
  assert.notEqual(blocked.status, 'ok');
  assert.equal(blocked.failure?.stage, 'hook');
  assert.equal(existsSync(path.join(root, 'b.txt')), false, 'the call did not run');
  assert.equal(readFileSync(guardRan, 'utf8'), 'ran\n', 'the changed hook did not run');
  assert.deepEqual(blocked.hookRuns?.[0]?.pinChanged, [guard]);
  assert.equal(calls.filter((c) => c.tool === 'WriteFile').length, 1);
});

test("unit hooks root: the files hooks run are protected relative to the project root, not the call's cwd", () => {
  const root = '/proj';
  const hooks: HooksConfig = {
    Stop: [
      {
        hooks: [
          { type: 'command', command: 'npm run lint' },
          { type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh' },
        ],
      },
    ],
  };
  const p = sessionPermission(
    { mode: 'default', rules: { allow: [], ask: [], deny: [] }, workingDirectories: ['/proj/packages/x'] },
    {} as ResultStore,
    hooks,
    root,
  );
  const files = p.controlFiles ?? [];
  assert.ok(files.includes('/proj/package.json'), files.join(', '));
  assert.ok(files.includes('/proj/.claude/hooks/check.sh'), files.join(', '));
  assert.equal(files.includes('/proj/packages/x/package.json'), false, files.join(', '));
  assert.equal(files.includes('/proj/packages/x/.claude/hooks/check.sh'), false, files.join(', '));
});

test("unit hooks root: sessionInput pins the hooks' files against the start directory; a subagent's input keeps its parent's pins", async () => {
  const { root, sub } = await project('input');
  const input = sessionInput({ prompt: 'p', cwd: root, hooks: HOOKS });
  assert.equal(input.hookPins?.projectDir, root);
  assert.deepEqual(Object.keys(input.hookPins?.commands['npm run --silent lint'] ?? {}), [
    path.join(root, 'package.json'),
  ]);
  assert.ok(
    input.hookPins?.commands['"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh']?.[
      path.join(root, '.claude/hooks/check.sh')
    ]?.startsWith('x'),
  );
  const child = sessionInput({ prompt: 'c', cwd: sub, hooks: HOOKS, hookPins: input.hookPins! });
  assert.deepEqual(
    child.hookPins,
    input.hookPins,
    "the child's hooks run from the parent's root, checked against its pins",
  );
  assert.equal(sessionInput({ prompt: 'p', cwd: root }).hookPins, undefined);
});
