"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createToolActivities = createToolActivities;
// The tool activities: the cores of src/calls/tools.ts (the one pipeline with its execution ledger)
// with the activity's runtime — its heartbeats, cancellation signal, attempt and call key.
const tools_1 = require("../calls/tools");
const runtime_1 = require("./runtime");
function createToolActivities(deps) {
    const calls = (0, tools_1.createToolCalls)(deps);
    async function runToolUse(input) {
        return calls.runToolCall(input, (0, runtime_1.activityRuntime)());
    }
    /**
     * The Agent tool's pre-call phase (schema → validateInput → PreToolUse hooks → permission) as an
     * activity: a recorded result, an `ask`, a failure, or the resolved child session to start.
     */
    async function prepareSubagent(input) {
        return calls.prepareSubagent(input, (0, runtime_1.activityRuntime)());
    }
    /** The post-call phase: the child's final text through result mapping, size policy, PostToolUse hooks. */
    async function finishSubagent(input) {
        return calls.finishSubagent(input, (0, runtime_1.activityRuntime)());
    }
    return {
        describeToolUses: calls.describeToolUses,
        runToolUse,
        runToolCall: calls.runToolCall,
        storeReadFiles: calls.storeReadFiles,
        storeToolSettings: calls.storeToolSettings,
        prepareSubagent,
        finishSubagent,
    };
}
//# sourceMappingURL=tools.js.map