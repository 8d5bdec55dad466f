// TaskStop: stops a background task the session runs (Bash `run_in_background`, Monitor, Agent), by the id its start
// returned (the reference's name and schema: test/fixtures/reference-tools/2.1.328/TaskStop.json;
// `shell_id` is the old name of `task_id`). Like the schedule tools it only records what it wants —
// a `taskStopRequested` modifier — and the session cancels the task's activity, which kills the
// process group; a stopped command or Monitor sends no notification, a stopped agent the
// reference's "was stopped" one (tasks/core/taskScheduling.ts).
import { z } from 'zod';
import { buildTool } from '../toolProtocol/Tool';
import type { BackgroundTask } from '../core/autonomy';

const inputSchema = z.strictObject({
  task_id: z.string().optional().describe('The id of the background task to stop (from its start).'),
  shell_id: z.string().optional().describe('Old name of task_id.'),
});

export interface TaskStopOutput {
  message: string;
  task_id: string;
  task_type: string;
  command?: string;
}

const idOf = (i: { task_id?: string | undefined; shell_id?: string | undefined }): string =>
  (i.task_id ?? i.shell_id ?? '').trim();

function findTask(tasks: readonly BackgroundTask[] | undefined, id: string): BackgroundTask | undefined {
  return tasks?.find((t) => t.id === id);
}

export const TaskStopTool = buildTool<z.infer<typeof inputSchema>, TaskStopOutput>({
  name: 'TaskStop',
  inputSchema,
  maxResultSizeChars: 10_000,
  // Touches no file and asks nothing (as the schedule tools): it only stops what the session started.
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  isIdempotent: () => true,
  // The reference loads it on demand (ToolSearch), as the Cron tools.
  shouldDefer: true,
  prompt: () =>
    'Stops a background task (a Bash command started with run_in_background, a Monitor, or a background Agent) by its task id: its processes are killed; no notification follows, except for an agent (a notice that it was stopped).',
  summary: (i) => `TaskStop ${idOf(i)}`,
  async validateInput(i, ctx) {
    const id = idOf(i);
    if (id === '') return { result: false, message: 'Missing required parameter: task_id', errorCode: 1 };
    const task = findTask(ctx.agent.autonomy?.tasks, id);
    if (!task) return { result: false, message: `No task found with ID: ${id}`, errorCode: 1 };
    const state = task.stopRequested ? 'killed' : task.state;
    if (state === 'running') return { result: true };
    // As the reference 2.1.328 (test:reference 'TaskStop' cases): a command or Monitor that ended or
    // was stopped is gone (not found); an agent's record stays, with its status.
    if (task.kind !== 'local_agent') return { result: false, message: `No task found with ID: ${id}`, errorCode: 1 };
    return { result: false, message: `Task ${id} is not running (status: ${state})`, errorCode: 3 };
  },
  async call(i, ctx) {
    const id = idOf(i);
    const task = findTask(ctx.agent.autonomy?.tasks, id);
    const command = task?.command ?? task?.description ?? '';
    return {
      data: {
        message: `Successfully stopped task: ${id} (${command})`,
        task_id: id,
        // The reference's types: a Monitor is a `local_bash` task there.
        task_type: task?.kind === 'local_agent' ? 'local_agent' : 'local_bash',
        command,
      },
      contextModifiers: [{ type: 'taskStopRequested', taskId: id }],
    };
  },
  mapToolResultToToolResultBlockParam(d, toolUseId) {
    return { type: 'tool_result', tool_use_id: toolUseId, content: JSON.stringify(d) };
  },
});
