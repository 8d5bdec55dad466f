"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: background tasks in the audit (issue 19): `taskEntries` reads the session's `task-<id>`
// activities as the session decided their ends (a result's state; cancelled or cancel-requested:
// killed, with the TaskStop call that asked; timed out: lost; failed: failed), takes the whole
// command and the tool from the starting call, and the text row names the command, state, times,
// exit code, output size and where the whole output is.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const audit_1 = require("../../src/audit");
const tasks_1 = require("../../src/audit/tasks");
const T = (s) => Date.UTC(2025, 0, 2, 10, 0, s);
function call(toolUseId, tool, input, turn = 1) {
    return {
        kind: 'tool_call',
        turn,
        run: 0,
        toolUseId,
        tool,
        input,
        summary: tool,
        attempts: 1,
        activities: [],
        status: 'ok',
        resultPreview: '',
    };
}
function activity(id, toolUseId, over) {
    return {
        activityId: `task-${id}`,
        type: 'runBackgroundTask',
        input: {
            task: { id, toolUseId, command: 'preview', cwd: '/w', timeoutMs: 1000, outputPath: `/tmp/tasks/${id}.output` },
        },
        attempt: 1,
        failures: [],
        outcome: 'completed',
        scheduledAt: T(1),
        startedAt: T(1),
        endedAt: T(5),
        ...over,
    };
}
const calls = [
    call('toolu_ok', 'Bash', { command: 'make all && echo done', description: 'Build', run_in_background: true }),
    call('toolu_srv', 'Bash', { command: 'sleep 900', run_in_background: true }),
    call('toolu_lost', 'Bash', { command: 'sleep 600', run_in_background: true }),
    call('toolu_end', 'Bash', { command: 'tail -f log', run_in_background: true }),
    call('toolu_stop', 'TaskStop', { task_id: 'bsrv00000' }, 2),
    call('toolu_agent', 'Agent', { description: 'Review the diff', prompt: 'review', run_in_background: true }),
];
(0, node_test_1.test)('unit: taskEntries: ends as the session decides them, the whole command, who stopped it', () => {
    const tasks = (0, tasks_1.taskEntries)([
        { activityId: 'hook-Stop-1', type: 'runSessionHooks', attempt: 1, failures: [], outcome: 'completed' },
        activity('bok000000', 'toolu_ok', {
            result: { state: 'completed', exitCode: 0, signal: null, outputBytes: 5, outputRef: 'taskoutput-abc' },
        }),
        // TaskStop: the activity completed with what it had after the cancellation: killed all the same.
        activity('bsrv00000', 'toolu_srv', {
            cancelRequestedAt: T(3),
            result: { state: 'killed', exitCode: null, signal: 'SIGTERM', outputBytes: 0 },
        }),
        activity('blost0000', 'toolu_lost', { outcome: 'timed_out', failures: ['activity Heartbeat timeout'] }),
        activity('bend00000', 'toolu_end', { outcome: 'cancelled', cancelRequestedAt: T(4) }),
        activity('brun00000', 'toolu_gone', { outcome: 'running', endedAt: undefined }),
        // A Monitor task: its own activity type, the same input, a result with the events it delivered.
        {
            ...activity('bmon00000', 'toolu_none', {
                result: { state: 'completed', exitCode: 0, signal: null, outputBytes: 30, events: 4 },
            }),
            type: 'runMonitorTask',
        },
        // A background agent's wait for its child session (another activity type, another input and result).
        {
            ...activity('aagent000', '', {}),
            type: 'awaitAgentTask',
            input: { workflowId: 'sess-1/agent-toolu_agent' },
            result: { result: { status: 'failed' } },
        },
    ], 1, calls);
    strict_1.default.deepEqual(tasks.map((t) => [t.taskId, t.taskKind, t.state, t.command, t.stoppedBy, t.exitCode, t.outputBytes]), [
        ['bok000000', 'local_bash', 'completed', 'make all && echo done', undefined, 0, 5],
        ['bsrv00000', 'local_bash', 'killed', 'sleep 900', 'TaskStop toolu_stop', null, 0],
        ['blost0000', 'local_bash', 'lost', 'sleep 600', undefined, undefined, undefined],
        ['bend00000', 'local_bash', 'killed', 'tail -f log', 'the session ended', undefined, undefined],
        // The starting call is not in the report (a turn it could not read): the activity's preview and type.
        ['brun00000', 'local_bash', 'running', 'preview', undefined, undefined, undefined],
        ['bmon00000', 'monitor', 'completed', 'preview', undefined, 0, 30],
        ['aagent000', 'local_agent', 'failed', 'Review the diff', undefined, undefined, undefined],
    ]);
    strict_1.default.equal(tasks[5].events, 4);
    strict_1.default.equal(tasks[6].childSession, 'sess-1/agent-toolu_agent');
    strict_1.default.equal(tasks[6].toolUseId, 'toolu_agent');
    strict_1.default.equal(tasks[6].tool, 'Agent');
    const ok = tasks[0];
    strict_1.default.equal(ok.description, 'Build');
    strict_1.default.equal(ok.outputRef, 'taskoutput-abc');
    strict_1.default.equal(ok.outputFile, '/tmp/tasks/bok000000.output');
    strict_1.default.equal(ok.turn, 1);
    strict_1.default.equal(ok.run, 1);
    strict_1.default.equal(ok.startedAt, new Date(T(1)).toISOString());
    strict_1.default.equal(ok.endedAt, new Date(T(5)).toISOString());
    strict_1.default.equal(tasks[2].error, 'activity Heartbeat timeout');
    strict_1.default.equal(tasks[4].tool, undefined);
});
(0, node_test_1.test)('unit: the audit text has one row per task, after its turn, with exit, size and where the output is', () => {
    const tasks = (0, tasks_1.taskEntries)([
        activity('bok000000', 'toolu_ok', {
            result: { state: 'failed', exitCode: 3, signal: null, outputBytes: 12, outputRef: 'taskoutput-abc' },
        }),
    ], 0, calls);
    const report = {
        session: {
            kind: 'session',
            sessionId: 's',
            prompt: 'p',
            status: 'completed',
            runs: 1,
            runIds: ['r'],
            turns: 1,
            usage: { input_tokens: 0, output_tokens: 0 },
            toolCalls: 1,
            modelCalls: 0,
            tasks: 1,
            messages: [],
            interrupts: [],
        },
        modelCalls: [],
        toolCalls: [{ ...calls[0], startedAt: new Date(T(0)).toISOString() }],
        tasks,
    };
    const text = (0, audit_1.formatAuditText)(report);
    strict_1.default.match(text, /1 background task\b/);
    const row = text.split('\n').find((l) => l.includes('task-bok000000'));
    strict_1.default.ok(row, text);
    strict_1.default.match(row, / t1 +task +task-bok000000 /);
    strict_1.default.match(row, /local_bash: Build \(\$ make all && echo done\)/);
    strict_1.default.match(row, /by Bash toolu_ok/);
    strict_1.default.match(row, / failed /);
    strict_1.default.match(row, /ended 10:00:05\.000, exit 3, 12 B output, file \/tmp\/tasks\/bok000000\.output, stored taskoutput-abc/);
    // After the call that started it.
    strict_1.default.ok(text.indexOf('toolu_ok  ') < text.indexOf('task-bok000000'));
});
//# sourceMappingURL=audit-tasks.test.js.map