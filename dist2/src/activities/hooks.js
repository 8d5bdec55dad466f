"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createHookActivities = createHookActivities;
// The `runSessionHooks` activity: the core (src/calls/sessionHooks.ts) with the activity's cancellation signal.
const activity_1 = require("@temporalio/activity");
const sessionHooks_1 = require("../calls/sessionHooks");
function createHookActivities(deps) {
    async function runSessionHooks(input) {
        return (0, sessionHooks_1.runSessionHooksWith)(deps, input, activity_1.Context.current().cancellationSignal);
    }
    return { runSessionHooks };
}
//# sourceMappingURL=hooks.js.map