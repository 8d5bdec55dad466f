"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.classifyModelError = exports.ModelCallError = void 0;
exports.createCalls = createCalls;
// The Temporal-free cores of every call a session makes, for any scheduler: the activities
// (src/activities) are thin adapters over them that add the activity's runtime and turn domain
// errors into ApplicationFailures; the in-process runner (src/local) calls them directly with a
// CallRuntime of its own. A core never imports @temporalio/*: it throws domain errors
// (DurableAgentError, ModelCallError) and returns data.
const backgroundTask_1 = require("./backgroundTask");
const compact_1 = require("./compact");
const model_1 = require("./model");
const monitorTask_1 = require("./monitorTask");
const sessionHooks_1 = require("./sessionHooks");
const tools_1 = require("./tools");
/** Every core bound to its dependencies: model call, compaction, session hooks, the tool calls, a background task's and a Monitor's run. */
function createCalls(deps) {
    return {
        callModel: (input, ctx) => (0, model_1.callModelWith)(deps.model, input, ctx),
        compactContext: (input, ctx) => (0, compact_1.compactContextWith)(deps.compaction, input, ctx),
        runSessionHooks: (input, signal) => (0, sessionHooks_1.runSessionHooksWith)(deps.hooks, input, signal),
        ...(0, tools_1.createToolCalls)(deps.tools),
        ...(0, backgroundTask_1.createBackgroundTaskCalls)(deps.tools),
        ...(0, monitorTask_1.createMonitorTaskCalls)(deps.tools),
    };
}
var model_2 = require("./model");
Object.defineProperty(exports, "ModelCallError", { enumerable: true, get: function () { return model_2.ModelCallError; } });
Object.defineProperty(exports, "classifyModelError", { enumerable: true, get: function () { return model_2.classifyModelError; } });
//# sourceMappingURL=index.js.map