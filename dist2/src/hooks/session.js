"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.matchQueryOf = matchQueryOf;
exports.runSessionEventHooks = runSessionEventHooks;
// Running the hooks of a session-level event (SessionStart, UserPromptSubmit, Stop, SubagentStart, SubagentStop,
// SessionEnd, Notification): the matched hooks run in parallel; what their answers mean for the
// session is decided in src/engine/hooks.ts.
const config_1 = require("./config");
const run_1 = require("./run");
/** The value an event's matcher is compared with. */
function matchQueryOf(event, input) {
    if (event === 'SessionStart')
        return String(input.source ?? '');
    if (event === 'SessionEnd')
        return String(input.reason ?? '');
    if (event === 'Notification')
        return String(input.notification_type ?? '');
    if (event === 'SubagentStart' || event === 'SubagentStop')
        return String(input.agent_type ?? '');
    return '';
}
async function runSessionEventHooks(input, env) {
    const event = input.hook_event_name;
    const matched = (0, config_1.hooksFor)(env.config, event, matchQueryOf(event, input));
    if (matched.length === 0)
        return [];
    return Promise.all(matched.map((h) => (0, run_1.runOne)(h, event, input, env)));
}
//# sourceMappingURL=session.js.map