// unit: sessions apart (issue 30, class 5; DESIGN invariant 9), with the real OS sandbox, real
// processes and real files. Two sessions on one worker: session A runs a background command and a
// foreground command that keep writing a secret (its task output file and its live Bash spool);
// session B's sandboxed Bash tries to read them every way a command can (cat, ls, find, cp, a
// symlink, a path through its own TMPDIR, /proc) and writes whatever it got into its working
// directory; the oracle is that directory's bytes, never what a tool says. B's Read, Grep and Glob
// of A's files (and of A's large results in the store) are refused by permission (in
// bypassPermissions too). Then the lifetime: a session's
// directories are removed when it ends (endSessionTemp, the in-process runner), kept while a
// background task still runs and with DURABLE_AGENT_KEEP_SESSION_TEMP=1; the leftover sweep removes
// only old directories named like ours, never through a symlink.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs, existsSync } from 'node:fs';
import * as path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { BashTool, type BashOutput } from '../../src/tools/bash';
import {
  SandboxHost,
  sessionSpoolPath,
  sessionTasksPath,
  sessionTempPath,
  sessionTempRoot,
} from '../../src/sandbox/host';
import { endSessionTemp, holdSessionTemp, sweepSessionTemp } from '../../src/sandbox/sessionTemp';
import { createBackgroundTaskCalls, type RunBackgroundTaskInput } from '../../src/tasks/runtime/backgroundTask';
import { withResultDirectory, withTaskDirectory } from '../../src/toolCall/toolSession';
import type { ToolDeps } from '../../src/toolCall/tools';
import type { CallRuntime } from '../../src/runtime/runtime';
import { ExecutionLedger } from '../../src/stores/executionLedger';
import { LocalBlobStore } from '../../src/stores/messageStore';
import { PayloadStore } from '../../src/stores/payloadStore';
import { LocalResultStore } from '../../src/toolProtocol/resultStore';
import type { ToolUseContext } from '../../src/toolProtocol/Tool';
import type { PermissionMode, ToolPermissionContext } from '../../src/toolProtocol/permissionTypes';
import { runToolPipeline } from '../../src/toolCall/pipeline';
import { BUILTIN_TOOLS } from '../../src/tools';
import { createToolPool } from '../../src/permissions/toolPool';
import { startFakeAnthropic, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { startLocalSession } from '../../src/inprocess/runSession';
import { sandboxSkip } from '../support/systemPackages';
import { makeTmpDir, removeDir } from './tools-harness';

const sandboxHost = new SandboxHost();
let skip: string | false = false;
let root = '';
let workA = '';
let workB = '';

before(async () => {
  skip = await sandboxSkip(sandboxHost, 'the sessions-apart tests');
  if (skip) return;
  root = await makeTmpDir('da-apart-');
  workA = path.join(root, 'a');
  workB = path.join(root, 'b');
  await fs.mkdir(workA);
  await fs.mkdir(workB);
});

after(async () => {
  await sandboxHost.close();
  if (root) await removeDir(root);
});

let n = 0;
const permissionOf = (work: string, mode: PermissionMode = 'default'): ToolPermissionContext => ({
  mode,
  rules: { allow: [], ask: [], deny: [] },
  workingDirectories: [work],
  sandbox: {},
});

function ctx(sessionId: string, work: string, signal = new AbortController().signal): ToolUseContext {
  const toolUseId = `toolu_${++n}`;
  return {
    sessionId,
    toolUseId,
    idempotencyKey: `${sessionId}/${toolUseId}`,
    agent: { cwd: work, additionalDirectories: [], readFiles: {} },
    permission: permissionOf(work),
    abortSignal: signal,
    sandboxHost,
    // As on a worker: its store is the worker's private state (every session's stored task outputs).
    privatePaths: [path.join(root, 'store')],
  };
}

async function bash(sessionId: string, work: string, command: string, extra: Record<string, unknown> = {}) {
  return (await BashTool.call({ command, ...extra }, ctx(sessionId, work), () => undefined)).data as BashOutput;
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

const rt = (signal = new AbortController().signal): CallRuntime =>
  ({ signal, heartbeat: () => undefined, warn: () => undefined }) as unknown as CallRuntime;

function taskInput(sessionId: string, work: string, id: string, command: string, outputPath: string) {
  return {
    session: { sessionId, toolNames: ['Bash'], permission: permissionOf(work) },
    task: { id, toolUseId: `toolu_${id}`, command, cwd: work, timeoutMs: 60_000, outputPath },
    context: { cwd: work, additionalDirectories: [] },
  } as RunBackgroundTaskInput;
}

async function until(what: string, ok: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}

/** Every file under `dir` (not following symlinks) and its bytes. */
async function allBytes(dir: string): Promise<string> {
  let out = '';
  for (const e of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    out += await fs.readFile(path.join(e.parentPath, e.name), 'utf8').catch(() => '');
  }
  return out;
}

const mode = async (p: string) => (await fs.stat(p)).mode & 0o777;

test('attack: session B’s sandboxed Bash cannot read session A’s task output or live spool (cat, ls, find, cp, symlinks, ../, /proc) while A writes them', async (t) => {
  if (skip) return t.skip(skip);
  const a = `apart-a-${process.pid}-${Date.now()}`;
  const b = `apart-b-${process.pid}-${Date.now()}`;
  const SECRET = `SECRET-A-${process.pid}`;
  const loop = (tag: string) => `i=0; while :; do i=$((i+1)); echo ${SECRET}-${tag}-$i; sleep 0.05; done`;
  // A: a background command (its output file) and a foreground one (its live spool), both still running.
  const started = await bash(a, workA, loop('bg'), { run_in_background: true });
  const { taskId, outputPath } = started.background!;
  const stopA = new AbortController();
  const task = createBackgroundTaskCalls(deps()).runBackgroundTask(
    taskInput(a, workA, taskId, loop('bg'), outputPath),
    rt(stopA.signal),
  );
  const fg = BashTool.call({ command: loop('fg') }, ctx(a, workA, stopA.signal), () => undefined).catch(
    () => undefined,
  );
  try {
    await until('A’s task output holds the secret', async () =>
      (await fs.readFile(outputPath, 'utf8').catch(() => '')).includes(SECRET),
    );
    const spoolDir = sessionSpoolPath(a);
    let spoolFile = '';
    await until('A’s live spool holds the secret', async () => {
      for (const d of await fs.readdir(spoolDir).catch(() => [] as string[])) {
        const f = path.join(spoolDir, d, 'output');
        if ((await fs.readFile(f, 'utf8').catch(() => '')).includes(SECRET)) spoolFile = f;
      }
      return spoolFile !== '';
    });
    // Control: A's own sandbox reads its own task output.
    const own = await bash(a, workA, `cat ${outputPath} > ${workA}/own.txt`);
    assert.equal(own.exitCode, 0, own.output);
    assert.ok((await fs.readFile(path.join(workA, 'own.txt'), 'utf8')).includes(SECRET), 'A reads its own output');

    const aDir = sessionTempPath(a);
    const rootDir = sessionTempRoot();
    const loot = path.join(workB, 'loot');
    await fs.mkdir(loot);
    const keyA = path.basename(aDir);
    const attempts = [
      `cat ${outputPath}`,
      `cat ${spoolFile}`,
      `ls -la ${rootDir} ${aDir} ${aDir}/tasks ${spoolDir}`,
      `find ${rootDir} -type f -exec cat {} +`,
      `find ${path.dirname(rootDir)} -maxdepth 4 -path '*durable-agent-sandbox*' -name '*.output' -exec cat {} + 2>/dev/null`,
      `cp ${outputPath} ${loot}/cp.txt; cp -r ${aDir} ${loot}/cpdir`,
      `ln -s ${outputPath} "$TMPDIR/link" && cat "$TMPDIR/link"`,
      `ln -s ${aDir} "$TMPDIR/dirlink" && cat "$TMPDIR/dirlink"/tasks/*`,
      `cat "$TMPDIR/../${keyA}/tasks/"*`,
      `cat "$TMPDIR/../${keyA}.s/"*/output`,
      `ln ${outputPath} "$TMPDIR/hard" && cat "$TMPDIR/hard"`,
      // Each fd read for at most a second (A writes every 50 ms): a pipe with no writer's end closed
      // (the command's own stdin) blocked cat until the call's 60 s timeout.
      `for f in /proc/[0-9]*/fd/*; do timeout 1 cat "$f" 2>/dev/null | grep -a ${SECRET}; done | head -5`,
      `grep -ra ${SECRET} ${rootDir} ${path.dirname(rootDir)}/durable-agent-* 2>/dev/null | head -5`,
    ];
    for (const [i, cmd] of attempts.entries()) {
      const r = await bash(b, workB, `{ ${cmd} ; } > ${loot}/${i}.txt 2>&1`, { timeout: 60_000 });
      assert.equal(r.sandbox?.sandboxed, true, JSON.stringify(r.sandbox));
    }
    // Also what B's commands could have left in their own temp dir.
    const got = (await allBytes(loot)) + (await allBytes(sessionTempPath(b)));
    assert.ok(
      !got.includes(SECRET),
      `B read A's files:\n${got
        .split('\n')
        .filter((l) => l.includes(SECRET))
        .slice(0, 5)
        .join('\n')}`,
    );
    // Still running and writing: the attempts ran against live files.
    assert.ok((await fs.readFile(outputPath, 'utf8')).includes(SECRET));
    // 0700 all the way: the root, A's directory, its tasks and its spool.
    for (const d of [rootDir, aDir, sessionTasksPath(a), spoolDir]) assert.equal(await mode(d), 0o700, d);
  } finally {
    stopA.abort();
    await task.catch(() => undefined);
    await fg;
    await endSessionTemp(a);
    await endSessionTemp(b);
  }
});

test('attack: session B’s Read, Grep and Glob of session A’s files and stored results are refused by permission, in every mode (also through a symlink in B’s own tasks dir)', async (t) => {
  if (skip) return t.skip(skip);
  const a = `apart-fa-${process.pid}-${Date.now()}`;
  const b = `apart-fb-${process.pid}-${Date.now()}`;
  const SECRET = `FILE-SECRET-${process.pid}`;
  const started = await bash(a, workA, `echo ${SECRET}`, { run_in_background: true });
  const { taskId, outputPath } = started.background!;
  await createBackgroundTaskCalls(deps()).runBackgroundTask(
    taskInput(a, workA, taskId, `echo ${SECRET}`, outputPath),
    rt(),
  );
  assert.ok((await fs.readFile(outputPath, 'utf8')).includes(SECRET), 'A’s output is there');
  await bash(b, workB, 'true'); // B's directories exist
  // A's large result in the store's results/<A> (the worker's layout), beside B's own.
  const aResult = path.join(root, 'results', a, 'toolu_big.txt');
  await fs.mkdir(path.dirname(aResult), { recursive: true });
  await fs.writeFile(aResult, `${SECRET} in a stored result\n`);
  const bResult = path.join(root, 'results', b, 'toolu_mine.txt');
  await fs.mkdir(path.dirname(bResult), { recursive: true });
  await fs.writeFile(bResult, 'B-OWN-RESULT\n');
  // A link in B's tasks dir (a working directory of B's file tools), planted by the worker's hand.
  const link = path.join(sessionTasksPath(b), 'peek.output');
  await fs.symlink(outputPath, link);
  try {
    const run = async (mode: PermissionMode, name: string, input: Record<string, unknown>) => {
      const permission = withResultDirectory(
        withTaskDirectory(permissionOf(workB, mode), b),
        new LocalResultStore(path.join(root, 'results', b)),
      );
      const o = await runToolPipeline(
        { type: 'tool_use', id: `toolu_${++n}`, name, input },
        {
          pool: createToolPool(BUILTIN_TOOLS, permission),
          sessionId: b,
          agent: { cwd: workB, additionalDirectories: [], readFiles: {} },
          permission,
          sandboxHost,
        },
      );
      return JSON.stringify({ status: o.status, result: o.result, ask: o.ask });
    };
    const parent = path.dirname(sessionTempRoot());
    for (const m of ['default', 'acceptEdits', 'bypassPermissions', 'dontAsk'] as PermissionMode[]) {
      const results = [
        await run(m, 'Read', { file_path: outputPath }),
        await run(m, 'Read', { file_path: link }),
        await run(m, 'Read', { file_path: aResult }),
        await run(m, 'Grep', { pattern: SECRET, path: sessionTempRoot(), output_mode: 'content' }),
        await run(m, 'Grep', { pattern: SECRET, path: path.dirname(outputPath), output_mode: 'content' }),
        await run(m, 'Glob', { pattern: '**/*.output', path: sessionTempRoot() }),
        await run(m, 'Glob', { pattern: `durable-agent-sandbox/**/${taskId}.output`, path: parent }),
        await run(m, 'Grep', { pattern: SECRET, path: parent, glob: `**/${taskId}.output`, output_mode: 'content' }),
      ];
      for (const r of results) {
        assert.ok(!r.includes(SECRET), `${m}: ${r}`);
        assert.ok(
          !r.includes(`${taskId}.output`) || /another session/.test(r) || /denied|approval/i.test(r),
          `${m}: ${r}`,
        );
      }
      // The path tools' decisions: denied by the sessions-apart check, whatever the mode.
      for (const r of results.slice(0, 4)) assert.match(r, /another session's private directories/, `${m}: ${r}`);
    }
    // B's own task output stays readable by B's Read.
    const mine = path.join(sessionTasksPath(b), 'mine.output');
    await fs.writeFile(mine, 'B-OWN\n');
    assert.match(await run('default', 'Read', { file_path: mine }), /B-OWN/);
    assert.match(await run('default', 'Read', { file_path: bResult }), /B-OWN-RESULT/);
  } finally {
    await endSessionTemp(a);
    await endSessionTemp(b);
  }
});

test('unit: a session’s directories are removed at its end, kept while a background task still runs, kept with DURABLE_AGENT_KEEP_SESSION_TEMP=1', async (t) => {
  if (skip) return t.skip(skip);
  const s = `apart-end-${process.pid}-${Date.now()}`;
  const r = await bash(s, workA, 'echo x > "$TMPDIR/scratch"');
  assert.equal(r.exitCode, 0, r.output);
  assert.ok(existsSync(path.join(sessionTempPath(s), 'scratch')));
  assert.ok(existsSync(sessionSpoolPath(s)));
  assert.equal(await endSessionTemp(s), 'removed');
  assert.ok(!existsSync(sessionTempPath(s)), 'the temp dir is gone');
  assert.ok(!existsSync(sessionSpoolPath(s)), 'the spool dir is gone');

  // A background task still running when the session ends: kept until it ends.
  const bg = `apart-bg-${process.pid}-${Date.now()}`;
  const marker = path.join(workA, `bg-done-${process.pid}`);
  // It ends once the test opens the gate (after it saw the session's temp held), not after 1.5 s the
  // checks had to beat.
  const gate = path.join(workA, `bg-gate-${process.pid}`);
  const cmd = `until [ -e ${gate} ]; do sleep 0.05; done; echo done > ${marker}`;
  const started = await bash(bg, workA, cmd, { run_in_background: true });
  const running = createBackgroundTaskCalls(deps()).runBackgroundTask(
    taskInput(bg, workA, started.background!.taskId, cmd, started.background!.outputPath),
    rt(),
  );
  await until('the task runs', async () => existsSync(path.join(sessionSpoolPath(bg))));
  assert.equal(await endSessionTemp(bg), 'held');
  assert.ok(existsSync(started.background!.outputPath), 'kept while the task runs');
  await fs.writeFile(gate, '');
  const end = await running;
  assert.equal(end.state, 'completed', JSON.stringify(end));
  assert.ok(existsSync(marker), 'the task ran to its end');
  await until(
    'removed after the task',
    async () => !existsSync(sessionTempPath(bg)) && !existsSync(sessionSpoolPath(bg)),
  );

  // The retention setting keeps everything.
  const kept = `apart-keep-${process.pid}-${Date.now()}`;
  await bash(kept, workA, 'echo x > "$TMPDIR/scratch"');
  assert.equal(await endSessionTemp(kept, { DURABLE_AGENT_KEEP_SESSION_TEMP: '1' }), 'kept');
  assert.ok(existsSync(path.join(sessionTempPath(kept), 'scratch')));
  assert.equal(await endSessionTemp(kept), 'removed');
  assert.ok(!existsSync(sessionTempPath(kept)));

  // A hold released before the end does not keep anything.
  const h = `apart-hold-${process.pid}`;
  holdSessionTemp(h)();
  assert.equal(await endSessionTemp(h), 'removed');
});

test('unit: the in-process runner removes the session’s temp and spool directories when the session ends', async (t) => {
  if (skip) return t.skip(skip);
  const fake = await startFakeAnthropic();
  try {
    const sessionId = `apart-local-${process.pid}-${Date.now()}`;
    const said = path.join(workA, `tmpdir-${process.pid}.txt`);
    fake.enqueue(
      toolUseResponse([
        {
          id: 'toolu_w',
          name: 'Bash',
          input: { command: `echo kept > "$TMPDIR/scratch" && echo "$TMPDIR" > ${said}` },
        },
      ]),
      textResponse('done'),
    );
    const r = await startLocalSession(
      {
        sessionId,
        prompt: 'write a scratch file',
        cwd: workA,
        tools: ['Bash'],
        permissionMode: 'bypassPermissions',
        model: { model: 'claude-test', maxTokens: 256 },
      },
      { anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
    ).result;
    assert.equal(r.status, 'completed', r.endReason);
    assert.equal(
      (await fs.readFile(said, 'utf8')).trim(),
      sessionTempPath(sessionId),
      'the command ran with its TMPDIR',
    );
    assert.ok(!existsSync(sessionTempPath(sessionId)), 'the temp dir is gone');
    assert.ok(!existsSync(sessionSpoolPath(sessionId)), 'the spool dir is gone');
  } finally {
    await fake.close();
  }
});

test('unit: the leftover sweep removes old directories named like ours, never through a symlink, never a recent or foreign-named one', async () => {
  const base = await makeTmpDir('da-sweep-');
  try {
    const sweepRoot = path.join(base, 'durable-agent-sandbox');
    await fs.mkdir(sweepRoot, { mode: 0o700 });
    const victim = path.join(base, 'victim');
    await fs.mkdir(victim);
    await fs.writeFile(path.join(victim, 'precious'), 'keep me');
    const old = new Date(Date.now() - 10 * 24 * 3_600_000);
    const mk = async (name: string, age: Date) => {
      await fs.mkdir(path.join(sweepRoot, name));
      await fs.writeFile(path.join(sweepRoot, name, 'f'), 'x');
      await fs.utimes(path.join(sweepRoot, name), age, age);
    };
    await mk('0123456789abcdef', old);
    await mk('0123456789abcdef.s', old);
    await mk('fedcba9876543210', new Date());
    await mk('not-ours', old);
    // Inside an old session directory, a link to the victim: removed as a link, not followed.
    await fs.symlink(victim, path.join(sweepRoot, '0123456789abcdef', 'escape'));
    await fs.utimes(path.join(sweepRoot, '0123456789abcdef'), old, old);
    // A link named like ours at the top: left alone.
    await fs.symlink(victim, path.join(sweepRoot, 'aaaaaaaaaaaaaaaa'));
    await fs.lutimes(path.join(sweepRoot, 'aaaaaaaaaaaaaaaa'), old, old);
    const removed = await sweepSessionTemp({ root: sweepRoot, maxAgeMs: 8 * 24 * 3_600_000 });
    assert.deepEqual(removed.sort(), ['0123456789abcdef', '0123456789abcdef.s']);
    assert.deepEqual((await fs.readdir(sweepRoot)).sort(), ['aaaaaaaaaaaaaaaa', 'fedcba9876543210', 'not-ours']);
    assert.equal(await fs.readFile(path.join(victim, 'precious'), 'utf8'), 'keep me');
    // Bounded.
    for (let i = 0; i < 5; i++) await mk(`${i}`.repeat(16), old);
    assert.equal((await sweepSessionTemp({ root: sweepRoot, maxAgeMs: 1000, max: 2 })).length, 2);
  } finally {
    await removeDir(base);
  }
});
