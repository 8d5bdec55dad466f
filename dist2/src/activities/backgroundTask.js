"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createBackgroundTaskActivities = createBackgroundTaskActivities;
// `runBackgroundTask`: a session's background task (Bash `run_in_background`) as its own
// long-lived activity — the core of src/calls/backgroundTask.ts with the activity's runtime: its
// heartbeats (how the session learns that the worker died: the heartbeat times out, the task is
// lost) and its cancellation signal (TaskStop: the process group is killed).
const backgroundTask_1 = require("../calls/backgroundTask");
const runtime_1 = require("./runtime");
function createBackgroundTaskActivities(deps) {
    const calls = (0, backgroundTask_1.createBackgroundTaskCalls)(deps);
    return {
        async runBackgroundTask(input) {
            return calls.runBackgroundTask(input, (0, runtime_1.activityRuntime)());
        },
    };
}
//# sourceMappingURL=backgroundTask.js.map