"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TaskStopTool = void 0;
// TaskStop: stops a background task the session runs (Bash `run_in_background`, Monitor), by the id its start
// returned (the reference's name and schema: test/fixtures/reference-tools/2.1.328/TaskStop.json;
// `shell_id` is the old name of `task_id`). Like the schedule tools it only records what it wants —
// a `taskStopRequested` modifier — and the session cancels the task's activity, which kills the
// process group; a stopped task sends no notification.
const zod_1 = require("zod");
const Tool_1 = require("../Tool");
const inputSchema = zod_1.z.strictObject({
    task_id: zod_1.z.string().optional().describe('The id of the background task to stop (from its start).'),
    shell_id: zod_1.z.string().optional().describe('Old name of task_id.'),
});
const idOf = (i) => (i.task_id ?? i.shell_id ?? '').trim();
function findTask(tasks, id) {
    return tasks?.find((t) => t.id === id);
}
exports.TaskStopTool = (0, Tool_1.buildTool)({
    name: 'TaskStop',
    inputSchema,
    maxResultSizeChars: 10_000,
    // Touches no file and asks nothing (as the schedule tools): it only stops what the session started.
    isReadOnly: () => true,
    isConcurrencySafe: () => false,
    isIdempotent: () => true,
    // The reference loads it on demand (ToolSearch), as the Cron tools.
    shouldDefer: true,
    prompt: () => 'Stops a background task (a Bash command started with run_in_background, or a Monitor) by its task id: its processes are killed and no notification follows.',
    summary: (i) => `TaskStop ${idOf(i)}`,
    async validateInput(i, ctx) {
        const id = idOf(i);
        if (id === '')
            return { result: false, message: 'Missing required parameter: task_id', errorCode: 1 };
        const task = findTask(ctx.agent.autonomy?.tasks, id);
        // A stopped task is gone, as in the reference (TaskStop of it again: not found).
        if (!task || task.state === 'killed' || task.stopRequested)
            return { result: false, message: `No task found with ID: ${id}`, errorCode: 1 };
        if (task.state !== 'running')
            return { result: false, message: `Task ${id} is not running (status: ${task.state})`, errorCode: 1 };
        return { result: true };
    },
    async call(i, ctx) {
        const id = idOf(i);
        const task = findTask(ctx.agent.autonomy?.tasks, id);
        const command = task?.command ?? task?.description ?? '';
        return {
            data: {
                message: `Successfully stopped task: ${id} (${command})`,
                task_id: id,
                task_type: task?.kind ?? 'local_bash',
                command,
            },
            contextModifiers: [{ type: 'taskStopRequested', taskId: id }],
        };
    },
    mapToolResultToToolResultBlockParam(d, toolUseId) {
        return { type: 'tool_result', tool_use_id: toolUseId, content: JSON.stringify(d) };
    },
});
//# sourceMappingURL=taskStop.js.map