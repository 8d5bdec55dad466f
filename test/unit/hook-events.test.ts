// unit: hook events as the reference defines them — load-time validation, the session's reading of
// hook answers (core/hooks.ts), the session loop's use of them, the transcript file format and
// Bash's tool_response shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initialContext } from '../../src/core/context';
import type { Message } from '../../src/core/apiMessages';
import { decideSessionHooks, type HookRun, type SessionHookEventName } from '../../src/core/hooks';
import {
  initialSessionState,
  runSession,
  sessionConfig,
  type SessionExecutor,
  type TurnReport,
} from '../../src/core/session';
import { hooksFor, normalizeHooksConfig } from '../../src/hooks/config';
import { hookToolResponse, noOutputExpected } from '../../src/hooks/toolResponse';
import { transcriptLines, writeTranscriptFile } from '../../src/hooks/transcript';
import { firstMessage, splitMemoryReminder } from '../../src/core/memoryReminder';
import { memoryReminder } from '../../src/claudeMd/claudeMd';
import { HOOK_EVENTS } from '../../src/hooks/types';
import { loadSettings } from '../../src/cli/settings';

const cmd = { type: 'command', command: 'true' };

test('unit: every reference event is accepted; an unknown event or hook type fails at load naming the key', () => {
  const all = Object.fromEntries(HOOK_EVENTS.map((e) => [e, [{ hooks: [cmd] }]]));
  assert.deepEqual(Object.keys(normalizeHooksConfig({ hooks: all })).sort(), [...HOOK_EVENTS].sort());
  assert.throws(() => normalizeHooksConfig({ hooks: { PostToolUze: [] } }), /hooks\.PostToolUze is not a hook event/);
  assert.throws(
    () => normalizeHooksConfig({ Stop: [{ hooks: [{ type: 'prompt', prompt: 'x' }] }] }),
    /hooks\.Stop\[0\]\.hooks\[0\]\.type "prompt".*not supported/,
  );
  assert.throws(() => normalizeHooksConfig({ Stop: [{ hooks: [{ type: 'script' }] }] }), /type must be "command"/);
});

test('unit: settings load fails on an unknown hook event, naming the file and the key', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'da-hooks-'));
  const file = join(dir, 'settings.json');
  await writeFile(file, JSON.stringify({ hooks: { SessionBegin: [{ hooks: [cmd] }] } }));
  assert.throws(
    () => loadSettings(dir, [file]),
    (e: Error) => e.message.includes(file) && /hooks\.SessionBegin is not a hook event/.test(e.message),
  );
  // An event of the current reference that durable-agent never fires loads with a warning.
  await writeFile(file, JSON.stringify({ hooks: { PermissionRequest: [{ hooks: [cmd] }], Stop: [{ hooks: [cmd] }] } }));
  const eff = loadSettings(dir, [file]);
  assert.ok(
    eff.warnings.some((w) => w.includes(file) && /hooks\.PermissionRequest.*never fires/.test(w)),
    eff.warnings.join('\n'),
  );
  assert.deepEqual(Object.keys(normalizeHooksConfig({ hooks: eff.hooks })), ['Stop']);
});

test('unit: matchers per event — SessionStart by source, Stop/UserPromptSubmit ignore a matcher', () => {
  const config = normalizeHooksConfig({
    SessionStart: [
      { matcher: 'startup|resume', hooks: [{ type: 'command', command: 'a' }] },
      { matcher: 'compact', hooks: [{ type: 'command', command: 'b' }] },
    ],
    Stop: [{ matcher: 'Whatever', hooks: [{ type: 'command', command: 'c' }] }],
  });
  assert.deepEqual(
    hooksFor(config, 'SessionStart', 'startup').map((h) => h.label),
    ['a'],
  );
  assert.deepEqual(
    hooksFor(config, 'SessionStart', 'compact').map((h) => h.label),
    ['b'],
  );
  assert.deepEqual(
    hooksFor(config, 'Stop', '').map((h) => h.label),
    ['c'],
  );
});

const run = (event: string, r: Partial<HookRun>): HookRun => ({
  event,
  hook: 'h.sh',
  outcome: 'success',
  durationMs: 1,
  ...r,
});

test('unit: output semantics — exit 2 blocks only where the reference says; plain stdout is context for UserPromptSubmit/SessionStart', () => {
  assert.equal(
    decideSessionHooks('Stop', [run('Stop', { outcome: 'blocking', stderr: 'keep going' })]).block?.reason,
    '[h.sh]: keep going',
  );
  assert.equal(
    decideSessionHooks('UserPromptSubmit', [run('UserPromptSubmit', { outcome: 'blocking', stderr: 'no secrets' })])
      .block?.reason,
    'no secrets',
  );
  const n = decideSessionHooks('Notification', [run('Notification', { outcome: 'blocking', stderr: 'x' })]);
  assert.equal(n.block, undefined);
  assert.match(n.notices[0]!, /exited with code 2: x/);
  assert.deepEqual(
    decideSessionHooks('UserPromptSubmit', [run('UserPromptSubmit', { stdout: 'ctx\n' })]).additionalContext,
    ['ctx'],
  );
  assert.deepEqual(decideSessionHooks('SessionStart', [run('SessionStart', { stdout: 'hello' })]).additionalContext, [
    'hello',
  ]);
  assert.deepEqual(decideSessionHooks('Stop', [run('Stop', { stdout: 'ignored' })]).additionalContext, []);
  const j = decideSessionHooks('Stop', [
    run('Stop', { output: { decision: 'block', reason: 'tests fail', systemMessage: 'heads up' } }),
  ]);
  assert.equal(j.block?.reason, 'tests fail');
  assert.match(j.notices[0]!, /heads up/);
  const c = decideSessionHooks('SessionEnd', [
    run('SessionEnd', { output: { continue: false, stopReason: 'enough' } }),
  ]);
  assert.equal(c.stop?.reason, 'enough');
  const a = decideSessionHooks('UserPromptSubmit', [
    run('UserPromptSubmit', {
      output: { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'more' } },
    }),
  ]);
  assert.deepEqual(a.additionalContext, ['more']);
  assert.match(
    decideSessionHooks('Stop', [run('Stop', { outcome: 'non_blocking_error', error: 'exit code 1', stderr: 'oops' })])
      .notices[0]!,
    /exit code 1: oops/,
  );
});

function executor(
  answers: Partial<Record<SessionHookEventName, Array<Partial<HookRun>>>>,
  turns: Array<Partial<TurnReport> & { reason: TurnReport['reason'] }>,
) {
  const log: string[] = [];
  const fired: Array<[string, Record<string, unknown>]> = [];
  const state = initialSessionState('do it', initialContext('/w', []));
  const exec: SessionExecutor = {
    async runTurn(turn: number, append: Message[]) {
      const step = turns.shift();
      assert.ok(step, `no scripted turn ${turn}`);
      log.push(`turn ${turn} [${append.map((m) => m.content).join(' | ')}]`);
      return { consumedAppend: true, head: `h${turn}`, context: state.context, records: [], text: `t${turn}`, ...step };
    },
    takeInterrupt: () => false,
    waitForMessage: async () => false,
    hasHooks: (e) => e in answers,
    async runHooks(event, fields) {
      fired.push([event, fields]);
      const list = answers[event] ?? [];
      const next = list.length > 1 ? list.shift()! : list[0];
      return next ? [run(event, next)] : [];
    },
  };
  return { state, exec, log, fired };
}

test('unit: a Stop hook blocking once continues the session with its reason, then sees stop_hook_active', async () => {
  const { state, exec, log, fired } = executor(
    {
      Stop: [{ outcome: 'blocking', stderr: 'run the tests' }, {}],
      SessionStart: [{ stdout: 'repo is a monorepo' }],
      SessionEnd: [{}],
    },
    [{ reason: 'end_turn' }, { reason: 'end_turn' }],
  );
  const end = await runSession(state, sessionConfig({}), exec);
  assert.equal(end.kind === 'end' && end.status, 'completed');
  assert.deepEqual(log, [
    'turn 1 [do it | SessionStart hook additional context: repo is a monorepo]',
    'turn 2 [Stop hook feedback:\n[h.sh]: run the tests]',
  ]);
  assert.deepEqual(
    fired.map(([e, f]) => `${e}:${JSON.stringify(f)}`),
    [
      'SessionStart:{"source":"startup"}',
      'Stop:{"stop_hook_active":false,"last_assistant_message":"t1"}',
      'Stop:{"stop_hook_active":true,"last_assistant_message":"t2"}',
      'SessionEnd:{"reason":"other","end_status":"completed"}',
    ],
  );
});

test('unit: a subagent session fires SubagentStart and SubagentStop (blocking once), never SessionStart, UserPromptSubmit, Stop or SessionEnd', async () => {
  const all = { SessionStart: [{}], UserPromptSubmit: [{}], Stop: [{}], SessionEnd: [{}] };
  const { state, exec, log, fired } = executor(
    {
      ...all,
      SubagentStart: [{ output: { hookSpecificOutput: { additionalContext: 'use pnpm' } } }],
      SubagentStop: [{ output: { decision: 'block', reason: 'also lint' } }, {}],
    },
    [{ reason: 'end_turn' }, { reason: 'end_turn' }],
  );
  const end = await runSession(state, sessionConfig({}, true), exec);
  assert.equal(end.kind === 'end' && end.status, 'completed');
  assert.deepEqual(log, [
    'turn 1 [do it | SubagentStart hook additional context: use pnpm]',
    'turn 2 [Stop hook feedback:\nalso lint]',
  ]);
  assert.deepEqual(
    fired.map(([e, f]) => `${e}:${JSON.stringify(f)}`),
    [
      'SubagentStart:{}',
      'SubagentStop:{"stop_hook_active":false,"last_assistant_message":"t1"}',
      'SubagentStop:{"stop_hook_active":true,"last_assistant_message":"t2"}',
    ],
  );
});

test('unit: SessionStart fires again with source compact after a compacting turn and resume after a lost worker; startup once', async () => {
  const compaction = { at: 1, trigger: 'auto' } as unknown as NonNullable<TurnReport['compactions']>[number];
  const { state, exec, log, fired } = executor({ SessionStart: [{ stdout: 'env ok' }] }, [
    { reason: 'tool_use', compactions: [compaction] },
    { reason: 'tool_use', records: [{ status: 'ok', attempts: 2 }] },
    { reason: 'tool_use', records: [{ status: 'unknown_outcome' }] },
    { reason: 'end_turn' },
  ]);
  await runSession(state, sessionConfig({}), exec);
  assert.deepEqual(
    fired.map(([e, f]) => `${e}:${String(f.source)}`),
    ['SessionStart:startup', 'SessionStart:compact', 'SessionStart:resume', 'SessionStart:resume'],
  );
  assert.deepEqual(log, [
    'turn 1 [do it | SessionStart hook additional context: env ok]',
    'turn 2 [SessionStart hook additional context: env ok]',
    'turn 3 [SessionStart hook additional context: env ok]',
    'turn 4 [SessionStart hook additional context: env ok]',
  ]);
  // Off (a session recorded before the change): startup only.
  const old = executor({ SessionStart: [{}] }, [
    { reason: 'tool_use', compactions: [compaction] },
    { reason: 'end_turn' },
  ]);
  await runSession(old.state, sessionConfig({}, false, false), old.exec);
  assert.deepEqual(
    old.fired.map(([, f]) => f.source),
    ['startup'],
  );
});

test('unit: UserPromptSubmit adds context after the prompt; a blocked only prompt ends the session; continue:false stops', async () => {
  const ctx = executor({ UserPromptSubmit: [{ stdout: 'branch is main' }] }, [{ reason: 'end_turn' }]);
  await runSession(ctx.state, sessionConfig({}), ctx.exec);
  assert.deepEqual(ctx.log, ['turn 1 [do it | UserPromptSubmit hook additional context: branch is main]']);
  assert.deepEqual(ctx.fired[0], ['UserPromptSubmit', { prompt: 'do it' }]);

  const blocked = executor({ UserPromptSubmit: [{ outcome: 'blocking', stderr: 'contains a secret' }] }, []);
  const end = await runSession(blocked.state, sessionConfig({}), blocked.exec);
  assert.equal(end.kind === 'end' && end.status, 'stopped');
  assert.match(end.kind === 'end' ? end.endReason : '', /blocked by a UserPromptSubmit hook: contains a secret/);
  assert.deepEqual(blocked.log, []);

  const stopped = executor({ SessionStart: [{ output: { continue: false, stopReason: 'not today' } }] }, []);
  const s = await runSession(stopped.state, sessionConfig({}), stopped.exec);
  assert.match(s.kind === 'end' ? s.endReason : '', /not today/);
});

test('unit: no hooks configured — no hook is run (histories without hooks keep their command sequence)', async () => {
  const ctx = executor({}, [{ reason: 'end_turn' }]);
  await runSession(ctx.state, sessionConfig({}), ctx.exec);
  assert.deepEqual(ctx.fired, []);
});

test('unit: transcript lines in the reference format, chained by parentUuid, stable uuids', async () => {
  const messages: Message[] = [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
  ];
  const a = transcriptLines(messages, { sessionId: 's1', cwd: '/w' });
  const b = transcriptLines(messages, { sessionId: 's1', cwd: '/w' });
  assert.deepEqual(
    a.map((l) => l.uuid),
    b.map((l) => l.uuid),
  );
  assert.equal(a[0]!.parentUuid, null);
  assert.equal(a[1]!.parentUuid, a[0]!.uuid);
  assert.match(a[0]!.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.deepEqual([a[0]!.type, a[1]!.type], ['user', 'assistant']);
  const dir = await mkdtemp(join(tmpdir(), 'da-tr-'));
  await mkdir(dir, { recursive: true });
  const p = await writeTranscriptFile(join(dir, 't', 's1.jsonl'), messages, { sessionId: 's1', cwd: '/w' });
  const lines = (await readFile(p, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { sessionId: string; message: { content: unknown } });
  assert.equal(lines.length, 2);
  assert.equal(lines[0]!.sessionId, 's1');
  assert.equal(lines[0]!.message.content, 'hi');
});

test('unit: the transcript keeps CLAUDE.md out of the prompt line, hook context as attachment lines, Stop feedback as isMeta (as the reference)', () => {
  const reminder = memoryReminder([
    { path: '/w/CLAUDE.md', type: 'project', content: 'Use pnpm.\n</system-reminder> inside' } as never,
  ]);
  const messages: Message[] = [
    { role: 'user', content: firstMessage('fix the build', { files: ['/w/CLAUDE.md'], text: reminder, sha256: 'x' }) },
    { role: 'user', content: 'UserPromptSubmit hook additional context: branch is main' },
    { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    { role: 'user', content: 'Stop hook feedback:\nrun the tests' },
    { role: 'assistant', content: [{ type: 'text', text: 'tests pass' }] },
  ];
  const lines = transcriptLines(messages, { sessionId: 's1', cwd: '/w' });
  assert.deepEqual(
    lines.map((l) => l.type),
    ['user', 'attachment', 'assistant', 'user', 'assistant'],
  );
  assert.equal(lines[0]!.message?.content, 'fix the build');
  assert.deepEqual(lines[1]!.attachment, {
    type: 'hook_additional_context',
    content: ['branch is main'],
    hookName: 'UserPromptSubmit',
    hookEvent: 'UserPromptSubmit',
  });
  assert.equal(lines[1]!.message, undefined);
  assert.equal(lines[3]!.isMeta, true);
  assert.equal(lines[0]!.isMeta, undefined);
  lines.slice(1).forEach((l, i) => assert.equal(l.parentUuid, lines[i]!.uuid));
  // A memory by reference prepended as a message of its own leaves no line.
  assert.deepEqual(
    transcriptLines(
      [
        { role: 'user', content: reminder },
        { role: 'user', content: 'go' },
      ],
      { sessionId: 's', cwd: '/w' },
    ).map((l) => l.message?.content),
    ['go'],
  );
  assert.deepEqual(splitMemoryReminder('no memory here'), { prompt: 'no memory here' });
});

test('unit: UserPromptSubmit hooks see the prompt as typed, without the CLAUDE.md reminder of the first message', async () => {
  const reminder = memoryReminder([
    { path: '/w/CLAUDE.md', type: 'project', content: 'Never commit secrets.' } as never,
  ]);
  const { state, exec, fired } = executor({ UserPromptSubmit: [{}] }, [{ reason: 'end_turn' }]);
  state.pendingMessages[0] = firstMessage('deploy it', { files: ['/w/CLAUDE.md'], text: reminder, sha256: 'x' });
  await runSession(state, sessionConfig({}), exec);
  assert.deepEqual(fired, [['UserPromptSubmit', { prompt: 'deploy it' }]]);
});

test("unit: Bash's tool_response has exactly the reference's keys; other tools pass through", () => {
  const r = hookToolResponse(
    'Bash',
    { command: 'echo x', output: 'x\n', exitCode: 0, interrupted: false, timedOut: false },
    { command: 'echo x' },
  ) as Record<string, unknown>;
  assert.deepEqual(r, { stdout: 'x', stderr: '', interrupted: false, isImage: false, noOutputExpected: false });
  assert.equal(
    (hookToolResponse('Bash', { output: '', interrupted: false, timedOut: true }, {}) as { interrupted: boolean })
      .interrupted,
    true,
  );
  // A persisted output: the path and size of the whole, stdout cut as the reference cuts it.
  const big = 'y'.repeat(40_000);
  const p = hookToolResponse(
    'Bash',
    { command: 'seq', output: big },
    { command: 'seq' },
    { path: '/store/r.txt', size: 40_000 },
  ) as Record<string, unknown>;
  assert.equal((p.stdout as string).length, 30_000);
  assert.equal(p.persistedOutputPath, '/store/r.txt');
  assert.equal(p.persistedOutputSize, 40_000);
  const d = { filePath: '/a', matches: 3 };
  assert.equal(hookToolResponse('Glob', d, { pattern: '*' }), d);
  // Read: the reference's shape, the lines without our cat -n numbers.
  const read = hookToolResponse(
    'Read',
    {
      filePath: '/w/a.txt',
      content: '     1\thello\n     2\t\tindented',
      startLine: 1,
      numLines: 2,
      totalLines: 2,
      truncatedLines: 0,
      partial: false,
      mtimeMs: 1,
    },
    { file_path: 'a.txt' },
  );
  assert.deepEqual(read, {
    type: 'text',
    file: { filePath: 'a.txt', content: 'hello\n\tindented', numLines: 2, startLine: 1, totalLines: 2 },
  });
  // The reference splits at '\n': a final line break adds an empty last line; an empty file has one line.
  const whole = hookToolResponse(
    'Read',
    { filePath: '/w/a.txt', content: '     1\thello', startLine: 1, numLines: 1, totalLines: 1, endsWithNewline: true },
    { file_path: '/w/a.txt' },
  );
  assert.deepEqual(whole, {
    type: 'text',
    file: { filePath: '/w/a.txt', content: 'hello\n', numLines: 2, startLine: 1, totalLines: 2 },
  });
  const page = hookToolResponse(
    'Read',
    { filePath: '/w/a.txt', content: '     2\tl2', startLine: 2, numLines: 1, totalLines: 3, endsWithNewline: true },
    { file_path: '/w/a.txt' },
  );
  assert.deepEqual(page, {
    type: 'text',
    file: { filePath: '/w/a.txt', content: 'l2', numLines: 1, startLine: 2, totalLines: 4 },
  });
  const empty = hookToolResponse(
    'Read',
    { filePath: '/w/e.txt', content: '', startLine: 1, numLines: 0, totalLines: 0, endsWithNewline: false },
    { file_path: '/w/e.txt' },
  );
  assert.deepEqual(empty, {
    type: 'text',
    file: { filePath: '/w/e.txt', content: '', numLines: 1, startLine: 1, totalLines: 1 },
  });
});

test("unit: noOutputExpected: every command of the line is one that prints nothing (the reference's list)", () => {
  for (const c of ['cp a b', 'touch q', 'rm -f b && mv a c', 'mkdir -p d && touch d/x', 'X=1 chmod +x f'])
    assert.equal(noOutputExpected(c), true, c);
  for (const c of ['echo made > f', 'mkdir x; echo hi', 'true', 'chmod +x f | cat', 'ls >/dev/null', 'git init -q', ''])
    assert.equal(noOutputExpected(c), false, c);
});
