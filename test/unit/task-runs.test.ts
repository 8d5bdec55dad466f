// unit: tasks/core/taskRuns.ts — a background task's run started and stopped once for both schedulers,
// over fake primitives: which run each kind gets, a command's and a Monitor's ends and failures, a
// Monitor's batches, a background agent's spend counted before its notification, TaskStop's stop, the
// session's end waiting for every run, and the order of ends that settle together (each kind keeps the
// promise depth the workflow had, so recorded histories replay: a command's end before a Monitor's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BackgroundTask, TaskOutcome } from '../../src/core/autonomy';
import { initialContext } from '../../src/core/context';
import { SessionEvents, type SessionEvent, type SessionEventState } from '../../src/core/sessionEvents';
import type { AgentTaskEnd } from '../../src/core/subagents';
import type { MonitorEventBatch } from '../../src/tasks/core/monitorTasks';
import {
  TaskRuns,
  taskRunKind,
  type CommandRunResult,
  type MonitorRunResult,
  type TaskRunPrimitives,
  type TaskStop,
} from '../../src/tasks/core/taskRuns';
import { taskNotification } from '../../src/tasks/core/taskNotifications';

const task = (id: string, kind: BackgroundTask['kind'], extra: Partial<BackgroundTask> = {}): BackgroundTask => ({
  id,
  kind,
  toolUseId: `toolu_${id}`,
  description: `job ${id}`,
  command: `run ${id}`,
  startedAt: 1,
  timeoutMs: 60_000,
  state: 'running',
  ...extra,
});

/** A promise settled by the test. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

interface FakeStop extends TaskStop {
  id: string;
  stopped: boolean;
}

/** A session over `tasks` and fake primitives whose runs the test settles. */
function harness(tasks: BackgroundTask[]) {
  const state: SessionEventState = {
    context: { ...initialContext('/work'), autonomy: { tasks, crons: [] } },
    pendingMessages: [],
  };
  const events = new SessionEvents(state);
  const commands = new Map<string, ReturnType<typeof deferred<CommandRunResult>>>();
  const monitors = new Map<
    string,
    { run: ReturnType<typeof deferred<MonitorRunResult>>; deliver: (b: MonitorEventBatch) => void }
  >();
  const agents = new Map<string, ReturnType<typeof deferred<AgentTaskEnd>>>();
  const stops = new Map<string, FakeStop>();
  const inputs = new Map<string, unknown>();
  let changes = 0;
  const prim: TaskRunPrimitives<string, FakeStop> = {
    kind: taskRunKind,
    stopper: (t) => {
      const s: FakeStop = { id: t.id, stopped: false, stop: () => void (s.stopped = true) };
      stops.set(t.id, s);
      return s;
    },
    session: () => 'the-session',
    command: (t, input) => {
      inputs.set(t.id, input);
      const d = deferred<CommandRunResult>();
      commands.set(t.id, d);
      return d.promise;
    },
    monitor: (t, input, _stop, deliver) => {
      inputs.set(t.id, input);
      const d = deferred<MonitorRunResult>();
      monitors.set(t.id, { run: d, deliver });
      return d.promise;
    },
    agent: (t) => {
      const d = deferred<AgentTaskEnd>();
      agents.set(t.id, d);
      return d.promise;
    },
    failure: (err, stop): TaskOutcome => ({
      state: stop.stopped ? 'killed' : 'failed',
      endedAt: 9,
      exitCode: null,
      error: String(err),
    }),
    now: () => 7,
    allEnded: async (_done, runs) => {
      while (runs.size > 0) await Promise.allSettled([...runs]);
    },
  };
  const runs = new TaskRuns(events, prim, { notification: taskNotification }, () => void changes++);
  const ended = () =>
    events
      .pending()
      .filter((e): e is Extract<SessionEvent, { type: 'taskEnded' }> => e.type === 'taskEnded')
      .map((e) => e.taskId);
  return { state, events, runs, commands, monitors, agents, stops, inputs, ended, changes: () => changes };
}

const flush = () => new Promise((r) => setImmediate(r));

test('unit: TaskRuns — each kind gets its run once, with the session and the task context; a command ends with its notification', async () => {
  const h = harness([task('b1', 'local_bash'), task('m1', 'monitor'), task('a1', 'local_agent')]);
  h.runs.sync();
  h.runs.sync();
  assert.deepEqual([...h.commands.keys()], ['b1']);
  assert.deepEqual([...h.monitors.keys()], ['m1']);
  assert.deepEqual([...h.agents.keys()], ['a1']);
  assert.deepEqual(h.inputs.get('b1'), {
    session: 'the-session',
    task: { id: 'b1', toolUseId: 'toolu_b1', command: 'run b1', cwd: '/work', timeoutMs: 60_000, outputPath: '' },
    context: { cwd: '/work', additionalDirectories: [] },
  });
  assert.equal(h.runs.active(), true);
  h.commands.get('b1')!.resolve({ state: 'completed', exitCode: 0, outputBytes: 3 });
  await flush();
  const [end] = h.events.pending();
  assert.equal(end?.type, 'taskEnded');
  assert.match((end as { notification?: string }).notification ?? '', /<task-id>b1<\/task-id>[\s\S]*completed/);
  assert.equal(h.changes(), 1);
});

test('unit: TaskRuns — a Monitor delivers its batches once each, then its end text; a run that rejects is its failure', async () => {
  const h = harness([task('m1', 'monitor'), task('b2', 'local_bash')]);
  h.runs.sync();
  const m = h.monitors.get('m1')!;
  m.deliver({ taskId: 'm1', seq: 1, kind: 'event', text: 'line one' });
  m.deliver({ taskId: 'm1', seq: 1, kind: 'event', text: 'line one' });
  h.runs.deliver({ taskId: 'm1', seq: 2, kind: 'event', text: 'line two' });
  assert.deepEqual(
    h.events.pending().map((e) => e.type),
    ['monitorEvent', 'monitorEvent'],
  );
  m.run.resolve({ state: 'completed', exitCode: 0, events: 2, outputBytes: 18 });
  h.commands.get('b2')!.reject(new Error('no shell'));
  await flush();
  const ends = h.events.pending().filter((e) => e.type === 'taskEnded') as Extract<
    SessionEvent,
    { type: 'taskEnded' }
  >[];
  assert.deepEqual(
    ends.map((e) => [e.taskId, e.outcome.state, e.outcome.endedAt]),
    [
      ['b2', 'failed', 9],
      ['m1', 'completed', 7],
    ],
  );
  assert.match(ends[0]!.outcome.error ?? '', /no shell/);
  // A batch after the end is not taken.
  m.deliver({ taskId: 'm1', seq: 3, kind: 'event', text: 'late' });
  assert.equal(h.events.pending().filter((e) => e.type === 'monitorEvent').length, 2);
});

test("unit: TaskRuns — a background agent's spend is appended before its end; TaskStop stops the run, and it ends killed", async () => {
  const h = harness([task('a1', 'local_agent', { agent: { sessionId: 'child-1' } }), task('b1', 'local_bash')]);
  h.runs.sync();
  h.agents.get('a1')!.resolve({
    outcome: { state: 'completed', endedAt: 5, exitCode: null },
    notification: 'agent done',
    modelUsage: {
      'claude-x': {
        inputTokens: 1,
        outputTokens: 2,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
        webSearchRequests: 0,
        costUSD: null,
        calls: 1,
      },
    },
  });
  await flush();
  assert.deepEqual(
    h.events.pending().map((e) => e.type),
    ['subagentUsage', 'taskEnded'],
  );
  assert.equal((h.events.pending()[0] as { chargeTo?: string }).chargeTo, 'bg:child-1');
  // TaskStop: the context asks, the next sync stops the run; the run's failure is then a kill.
  const a = h.state.context.autonomy!;
  h.state.context = {
    ...h.state.context,
    autonomy: { ...a, tasks: a.tasks.map((t) => (t.id === 'b1' ? { ...t, stopRequested: true } : t)) },
  };
  h.runs.sync();
  assert.equal(h.stops.get('b1')!.stopped, true);
  h.commands.get('b1')!.reject(new Error('aborted'));
  await flush();
  // The sync applied the agent's end (the loop's fixed point); the command's is appended.
  assert.equal(h.state.context.autonomy?.tasks.find((t) => t.id === 'a1')?.state, 'completed');
  assert.deepEqual(h.ended(), ['b1']);
  const b1 = h.events.pending().at(-1) as Extract<SessionEvent, { type: 'taskEnded' }>;
  assert.equal(b1.outcome.state, 'killed');
  assert.equal(b1.notification, undefined);
  assert.equal(h.runs.active(), false);
});

test("unit: TaskRuns — the session's end stops every run and resolves once all have ended", async () => {
  const h = harness([task('b1', 'local_bash'), task('m1', 'monitor')]);
  h.runs.sync();
  let done = false;
  const stopping = h.runs.stopAll().then(() => void (done = true));
  assert.deepEqual(
    [...h.stops.values()].map((s) => s.stopped),
    [true, true],
  );
  h.commands.get('b1')!.reject(new Error('aborted'));
  await flush();
  assert.equal(done, false, 'the Monitor still runs');
  h.monitors.get('m1')!.run.resolve({ state: 'killed', exitCode: null, events: 0, outputBytes: 0 });
  await stopping;
  assert.deepEqual(h.ended(), ['b1', 'm1']);
  // Nothing is queued for what the session's end stopped.
  assert.ok(
    h.events.pending().every((e) => e.type !== 'taskEnded' || e.notification === undefined),
    'no notification',
  );
});

test("unit: TaskRuns — runs that settle together end in the order of their chains: a Monitor's after an agent's and a command's", async () => {
  // The workflow's order within one activation, which recorded histories hold: the Monitor settled
  // first, but its chain is one step longer (the watch's await), so it ends last.
  const h = harness([task('m1', 'monitor'), task('a1', 'local_agent'), task('b1', 'local_bash')]);
  h.runs.sync();
  h.monitors.get('m1')!.run.resolve({ state: 'completed', exitCode: 0, events: 0, outputBytes: 0 });
  h.agents.get('a1')!.resolve({ outcome: { state: 'completed', endedAt: 5, exitCode: null }, notification: 'x' });
  h.commands.get('b1')!.resolve({ state: 'completed', exitCode: 0, outputBytes: 0 });
  await flush();
  assert.deepEqual(h.ended(), ['a1', 'b1', 'm1']);
});
