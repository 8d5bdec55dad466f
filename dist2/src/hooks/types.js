"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_HOOK_TIMEOUT_SECONDS = exports.SESSION_HOOK_EVENTS = exports.REFERENCE_ONLY_HOOK_EVENTS = exports.HOOK_EVENTS = void 0;
/** Every event of the reference's hooks; a settings file naming any other fails at load. */
exports.HOOK_EVENTS = [
    'PreToolUse',
    'PostToolUse',
    'PostToolUseFailure',
    'UserPromptSubmit',
    'Stop',
    'SubagentStart',
    'SubagentStop',
    'SessionStart',
    'SessionEnd',
    'PreCompact',
    'Notification',
];
/**
 * Events the current reference defines that durable-agent never fires: accepted at load with a
 * warning (a settings file written for the reference still loads), never run.
 */
exports.REFERENCE_ONLY_HOOK_EVENTS = [
    'PostToolBatch',
    'UserPromptExpansion',
    'StopFailure',
    'PostCompact',
    'PermissionRequest',
    'PermissionDenied',
    'Setup',
    'TeammateIdle',
    'TaskCreated',
    'TaskCompleted',
    'Elicitation',
    'ElicitationResult',
    'ConfigChange',
    'WorktreeCreate',
    'WorktreeRemove',
    'InstructionsLoaded',
    'CwdChanged',
    'FileChanged',
    'MessageDisplay',
];
/** Events whose hooks the session (not a tool call) runs, as `hook-<event>-<n>` activities. */
exports.SESSION_HOOK_EVENTS = [
    'UserPromptSubmit',
    'Stop',
    'SubagentStart',
    'SubagentStop',
    'SessionStart',
    'SessionEnd',
    'Notification',
];
/** Default timeout of a hook, in seconds (the reference's current default). */
exports.DEFAULT_HOOK_TIMEOUT_SECONDS = 600;
//# sourceMappingURL=types.js.map