// unit: tasks/core/taskScheduling.ts — which end of a stopped task queues a notification: a background
// agent that TaskStop stopped queues the reference's "was stopped" notice (unless the scheduler's
// version gate says no: a session recorded before agent-stop-notice); a stopped command queues
// nothing; what the session's end (stopAll) stops queues nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BackgroundTask, TaskOutcome } from '../../src/core/autonomy';
import { initialContext } from '../../src/core/context';
import { SessionEvents, type SessionEventState } from '../../src/core/sessionEvents';
import { TaskScheduling } from '../../src/tasks/core/taskScheduling';
import { taskNotification } from '../../src/tasks/core/taskNotifications';

const task = (id: string, kind: BackgroundTask['kind']): BackgroundTask => ({
  id,
  kind,
  toolUseId: `toolu_${id}`,
  description: `job <${id}>`,
  startedAt: 1,
  timeoutMs: 60_000,
  state: 'running',
});

/** A scheduler over two running tasks whose runs end when stopped; returns what was queued. */
function scenario(stop: 'TaskStop' | 'stopAll', gate = true): string[] {
  const state: SessionEventState = {
    context: {
      ...initialContext('/tmp'),
      autonomy: { tasks: [task('a1', 'local_agent'), task('b1', 'local_bash')], crons: [] },
    },
    pendingMessages: [],
  };
  const events = new SessionEvents(state);
  const ends = new Map<string, (o: TaskOutcome) => void>();
  const book = new TaskScheduling(
    events,
    {
      start: (t, ended) => void ends.set(t.id, (o) => ended(o)),
      stop: (id) => ends.get(id)?.({ state: 'killed', endedAt: 2, exitCode: null }),
    },
    taskNotification,
    () => undefined,
    () => gate,
  );
  book.sync();
  if (stop === 'stopAll') book.stopAll();
  else {
    const a = state.context.autonomy!;
    state.context = {
      ...state.context,
      autonomy: { ...a, tasks: a.tasks.map((t) => ({ ...t, stopRequested: true })) },
    };
    book.sync();
  }
  // The ends were appended; the loop's next fixed point applies them.
  assert.equal(state.pendingMessages.length, 0);
  events.settle();
  assert.equal(book.active(), false);
  assert.deepEqual(
    state.context.autonomy?.tasks.map((t) => t.state),
    ['killed', 'killed'],
  );
  return state.pendingMessages;
}

test('unit: TaskScheduling — an agent stopped by TaskStop queues its "was stopped" notice; a stopped command none', () => {
  const queued = scenario('TaskStop');
  assert.equal(queued.length, 1);
  assert.match(queued[0]!, /<task-id>a1<\/task-id>\n<tool-use-id>toolu_a1<\/tool-use-id>\n<status>killed<\/status>/);
  assert.match(queued[0]!, /<summary>Agent "job &lt;a1&gt;" was stopped by Claude<\/summary>\n<note>/);
  assert.doesNotMatch(queued[0]!, /<result>|<usage>|<output-file>/);
});

test("unit: TaskScheduling — the session's end stops an agent without a notice; so does a session before the patch", () => {
  assert.deepEqual(scenario('stopAll'), []);
  assert.deepEqual(scenario('TaskStop', false), []);
});
