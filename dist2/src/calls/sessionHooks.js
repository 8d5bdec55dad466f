"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runSessionHooksWith = runSessionHooksWith;
// Session-level hooks (SessionStart, UserPromptSubmit, Stop, SubagentStart, SubagentStop, SessionEnd,
// Notification) for any scheduler: the core of the `runSessionHooks` activity (`hook-<event>-<n>`;
// command hooks are I/O, so they run on the worker) and of the in-process runner. The session
// (src/engine/session.ts) decides what their answers mean.
const hooks_1 = require("../engine/hooks");
const config_1 = require("../hooks/config");
const session_1 = require("../hooks/session");
const transcript_1 = require("../hooks/transcript");
async function runSessionHooksWith(deps, input, signal) {
    const config = (0, config_1.normalizeHooksConfig)(input.hooks);
    const extra = deps.hooks?.[input.event];
    if (extra?.length)
        config[input.event] = [...(config[input.event] ?? []), ...extra];
    const messages = await deps.transcripts.load(input.head);
    const transcriptPath = await (0, transcript_1.writeTranscriptFile)(deps.transcriptFile(input.sessionId), messages, {
        sessionId: input.sessionId,
        cwd: input.cwd,
    });
    const runs = await (0, session_1.runSessionEventHooks)({
        session_id: input.sessionId,
        transcript_path: transcriptPath,
        cwd: input.cwd,
        permission_mode: input.permissionMode,
        ...(input.agentHookFields ?? {}),
        hook_event_name: input.event,
        ...(input.event === 'SubagentStop' ? { agent_transcript_path: transcriptPath } : {}),
        ...input.fields,
    }, { config, cwd: input.cwd, ...(signal ? { signal } : {}) });
    return { runs: runs.map((r) => (0, hooks_1.trimHookRun)(r)), transcriptPath };
}
//# sourceMappingURL=sessionHooks.js.map