"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: TaskStop (issue 19) — by task_id or its old name shell_id, the reference's JSON answer and a
// taskStopRequested modifier for a running task; an unknown id and a task that already ended are
// errors with the reference's texts.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const taskStop_1 = require("../../src/tools/builtin/taskStop");
const tools_harness_1 = require("./tools-harness");
const task = (id, state) => ({
    id,
    kind: 'local_bash',
    toolUseId: `toolu_${id}`,
    description: 'Serve',
    startedAt: 1,
    timeoutMs: 60_000,
    state,
    ...(state === 'running' ? { command: 'npm run serve' } : {}),
});
(0, node_test_1.test)('unit: TaskStop stops a running task by task_id or shell_id; unknown and ended ids are errors', async () => {
    const s = new tools_harness_1.ToolSession('/tmp');
    s.agent = {
        ...s.agent,
        autonomy: { tasks: [task('brun00001', 'running'), task('bdone0001', 'completed')], crons: [] },
    };
    const unknown = await s.run(taskStop_1.TaskStopTool, { task_id: 'bnope0001' });
    strict_1.default.deepEqual([unknown.isError, unknown.text], [true, 'No task found with ID: bnope0001']);
    const ended = await s.run(taskStop_1.TaskStopTool, { task_id: 'bdone0001' });
    strict_1.default.deepEqual([ended.isError, ended.text], [true, 'Task bdone0001 is not running (status: completed)']);
    const none = await s.run(taskStop_1.TaskStopTool, {});
    strict_1.default.equal(none.isError, true);
    const stopped = await s.run(taskStop_1.TaskStopTool, { shell_id: 'brun00001' });
    strict_1.default.equal(stopped.isError, false);
    strict_1.default.deepEqual(JSON.parse(stopped.text), {
        message: 'Successfully stopped task: brun00001 (npm run serve)',
        task_id: 'brun00001',
        task_type: 'local_bash',
        command: 'npm run serve',
    });
    strict_1.default.equal(s.agent.autonomy?.tasks.find((t) => t.id === 'brun00001')?.stopRequested, true);
    strict_1.default.equal(taskStop_1.TaskStopTool.inputSchema.safeParse({ task_id: 'x', extra: 1 }).success, false);
});
//# sourceMappingURL=tools-taskstop.test.js.map