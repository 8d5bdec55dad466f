"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: Monitor (issue 19) — its schema is the reference's; `ws` and a missing or hidden-character
// command are refused in validateInput (is_error, clear text); timeout_ms is 1000..3600000 with a
// default of 300000; the call records a `monitor` task with a taskStarted modifier and answers with
// the reference's first sentence; its permissions are Bash's for its command (Bash rules, the shell
// analysis, a blanket Bash deny) plus its own Monitor rules.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const path = __importStar(require("node:path"));
const monitor_1 = require("../../src/tools/builtin/monitor");
const bash_1 = require("../../src/tools/builtin/bash");
const apiSchema_1 = require("../../src/tools/apiSchema");
const decide_1 = require("../../src/permissions/decide");
const matcher_1 = require("../../src/permissions/matcher");
const toolPool_1 = require("../../src/permissions/toolPool");
const bashParser_1 = require("../../src/permissions/bashParser");
const schemas_1 = require("../reference/schemas");
const host_1 = require("../../src/sandbox/host");
const tools_harness_1 = require("./tools-harness");
(0, node_test_1.before)(async () => {
    strict_1.default.equal(await (0, bashParser_1.loadShellParser)(), true);
});
function referenceSchema() {
    for (let dir = __dirname;; dir = path.dirname(dir)) {
        try {
            const file = path.join(dir, 'test', 'fixtures', 'reference-tools', '2.1.328', 'Monitor.json');
            const { $schema: _s, ...rest } = JSON.parse((0, node_fs_1.readFileSync)(file, 'utf8')).input_schema;
            return rest;
        }
        catch (e) {
            if (path.dirname(dir) === dir)
                throw e;
        }
    }
}
(0, node_test_1.test)('unit: Monitor input schema equals the reference 2.1.328 schema (descriptions stripped)', async () => {
    const ours = (await (0, apiSchema_1.toolToAPISchema)(monitor_1.MonitorTool)).input_schema;
    strict_1.default.deepEqual((0, schemas_1.stripDescriptions)(ours), (0, schemas_1.stripDescriptions)(referenceSchema()));
    // timeout_ms: a default in the schema, bounds 1000..3600000 enforced by the schema.
    strict_1.default.equal(monitor_1.MonitorTool.inputSchema.parse({ description: 'd', command: 'x' }).timeout_ms, 300_000);
    strict_1.default.equal(monitor_1.MonitorTool.inputSchema.safeParse({ description: 'd', command: 'x', timeout_ms: 999 }).success, false);
    strict_1.default.equal(monitor_1.MonitorTool.inputSchema.safeParse({ description: 'd', command: 'x', timeout_ms: 3_600_001 }).success, false);
    strict_1.default.equal(monitor_1.MonitorTool.inputSchema.safeParse({ description: 'd', command: 'x', extra: 1 }).success, false);
});
(0, node_test_1.test)('unit: Monitor refuses ws, a missing, empty or hidden-character command, an empty description', async () => {
    const s = new tools_harness_1.ToolSession('/tmp');
    const ws = await s.run(monitor_1.MonitorTool, { description: 'feed', timeout_ms: 5000, ws: { url: 'wss://example.com/x' } });
    strict_1.default.equal(ws.isError, true);
    strict_1.default.match(ws.invalid ?? ws.text, /`ws` \(WebSocket\) source is not supported here.*`command`/);
    const none = await s.run(monitor_1.MonitorTool, { description: 'x', timeout_ms: 5000 });
    strict_1.default.match(none.invalid ?? none.text, /needs a `command`/);
    const empty = await s.run(monitor_1.MonitorTool, { description: 'x', timeout_ms: 5000, command: '  ' });
    strict_1.default.match(empty.invalid ?? empty.text, /must not be empty/);
    const hidden = await s.run(monitor_1.MonitorTool, { description: 'x', timeout_ms: 5000, command: 'tail -f log\u202e' });
    strict_1.default.match(hidden.invalid ?? hidden.text, /control characters/);
    const noDescription = await s.run(monitor_1.MonitorTool, { description: ' ', timeout_ms: 5000, command: 'tail -f log' });
    strict_1.default.match(noDescription.invalid ?? noDescription.text, /`description` must not be empty/);
    strict_1.default.equal(s.agent.autonomy, undefined, 'nothing was recorded');
});
(0, node_test_1.test)('unit: Monitor is refused where the scheduler runs no background tasks (the in-process runner)', async () => {
    const s = new tools_harness_1.ToolSession('/tmp');
    const r = await s.run(monitor_1.MonitorTool, { description: 'build', command: 'tail -f build.log' });
    strict_1.default.equal(r.isError, true);
    strict_1.default.match(r.invalid ?? '', /^Monitor needs the durable runner: this session runs in process/);
    strict_1.default.equal(s.agent.autonomy, undefined, 'nothing was recorded');
});
(0, node_test_1.test)('unit: Monitor records a monitor task and answers with the task id and expiry', async () => {
    const s = new tools_harness_1.ToolSession('/tmp');
    const bg = { backgroundTasks: true };
    const r = await s.run(monitor_1.MonitorTool, { description: 'build errors', command: 'tail -f build.log | grep ERROR' }, bg);
    strict_1.default.equal(r.isError, false);
    const task = s.agent.autonomy?.tasks[0];
    strict_1.default.ok(task);
    strict_1.default.equal(task.kind, 'monitor');
    strict_1.default.equal(task.state, 'running');
    strict_1.default.equal(task.description, 'build errors');
    strict_1.default.equal(task.timeoutMs, 300_000);
    strict_1.default.match(task.id, /^b[a-z0-9]{8}$/);
    strict_1.default.deepEqual(r.data, { taskId: task.id, timeoutMs: 300_000, persistent: false });
    strict_1.default.ok(r.text.startsWith(`Monitor started (task ${task.id}, expires in 5m unless the source ends first; you get one notice at expiry — re-arm if you still need the watch).`), r.text);
    // The task names its output file (stdout and stderr, as a background command's) and its command.
    strict_1.default.equal(task.outputPath, path.join((0, host_1.sessionTasksPath)('test-session'), `${task.id}.output`));
    strict_1.default.equal((0, node_fs_1.readFileSync)(task.outputPath, 'utf8'), '');
    strict_1.default.equal(task.command, 'tail -f build.log | grep ERROR');
    strict_1.default.equal(task.cwd, '/tmp');
    const long = await s.run(monitor_1.MonitorTool, { description: 'long', command: 'x', timeout_ms: 3_600_000 }, bg);
    strict_1.default.match(long.text, /expires in 1h unless/);
    // The id is derived from the call: a retried call names the same task; another call another.
    strict_1.default.equal((0, monitor_1.monitorTaskId)('s', 'toolu_1'), (0, monitor_1.monitorTaskId)('s', 'toolu_1'));
    strict_1.default.notEqual((0, monitor_1.monitorTaskId)('s', 'toolu_1'), (0, monitor_1.monitorTaskId)('s', 'toolu_2'));
});
(0, node_test_1.test)("unit: Monitor's permissions are Bash's for its command, and its own rules apply", () => {
    const cwd = '/work/project';
    const env = { cwd, workingDirectories: [cwd] };
    const input = (command) => ({ description: 'd', timeout_ms: 5000, command });
    strict_1.default.equal((0, matcher_1.ruleMatches)('Bash(npm test:*)', 'allow', monitor_1.MonitorTool, input('npm test -- --watch'), env), true);
    strict_1.default.equal((0, matcher_1.ruleMatches)('Bash(npm test:*)', 'allow', monitor_1.MonitorTool, input('npm test && rm -rf /'), env), false);
    strict_1.default.equal((0, matcher_1.ruleMatches)('Bash(rm:*)', 'deny', monitor_1.MonitorTool, input('tail -f x; rm -rf y'), env), true);
    strict_1.default.equal((0, matcher_1.ruleMatches)('Monitor(tail:*)', 'allow', monitor_1.MonitorTool, input('tail -f log'), env), true);
    // Monitor rules do not cover Bash.
    strict_1.default.equal((0, matcher_1.ruleMatches)('Monitor(tail:*)', 'allow', bash_1.BashTool, { command: 'tail -f log' }, env), false);
    const decide = (command, rules, mode = 'default') => (0, decide_1.decidePermissionSync)(monitor_1.MonitorTool, input(command), { mode, rules: { allow: rules.allow ?? [], ask: [], deny: rules.deny ?? [] }, workingDirectories: [cwd] }, env).behavior;
    strict_1.default.equal(decide('npm run watch', {}), 'ask', 'a command that may write asks, as Bash');
    strict_1.default.equal(decide('npm run watch', { allow: ['Bash(npm run watch)'] }), 'allow');
    strict_1.default.equal(decide('npm run watch', { allow: ['Bash(npm run watch)'], deny: ['Bash(npm:*)'] }), 'deny');
    strict_1.default.equal(decide('cat log.txt', {}), 'allow', 'a read-only command inside the working directory, as Bash');
    // A blanket Bash deny takes Monitor out of the pool too; Bash and Monitor together are no name clash.
    const perms = (deny) => ({
        mode: 'default',
        rules: { allow: [], ask: [], deny },
        workingDirectories: [cwd],
    });
    strict_1.default.deepEqual((0, toolPool_1.createToolPool)([bash_1.BashTool, monitor_1.MonitorTool], perms([])).map((t) => t.name), ['Bash', 'Monitor']);
    strict_1.default.deepEqual((0, toolPool_1.createToolPool)([bash_1.BashTool, monitor_1.MonitorTool], perms(['Bash'])).map((t) => t.name), []);
    strict_1.default.deepEqual((0, toolPool_1.createToolPool)([bash_1.BashTool, monitor_1.MonitorTool], perms(['Monitor'])).map((t) => t.name), ['Bash']);
});
//# sourceMappingURL=tools-monitor.test.js.map