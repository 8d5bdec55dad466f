"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.BACKGROUND_HEARTBEAT_MS = void 0;
exports.createBackgroundTaskCalls = createBackgroundTaskCalls;
// A background task's own run (issue 19): the command a Bash `run_in_background` call recorded
// (engine/autonomy.ts `BackgroundTask`), run by the session as one long-lived activity
// `runBackgroundTask` on its tool task queue. The command runs the way a foreground Bash call runs
// (tools/builtin/bash.ts `runBackgroundCommand`: the session's sandbox plan, its own process group,
// the reaper's marker, so a dead worker's guardian kills it), its stdout and stderr go to the task's
// output file, and at the end the whole output is stored (hash and size for the audit). The call
// heartbeats; cancellation (TaskStop, the session's end) arrives through the signal and kills the
// process group. Never retried by the session (maximumAttempts 1): a lost worker is reported as a
// lost task, never a silent re-run. Failures to start are data (state `failed` with the reason).
// No Temporal here: src/activities/backgroundTask.ts is the adapter.
const node_fs_1 = require("node:fs");
const bash_1 = require("../tools/builtin/bash");
const tools_1 = require("./tools");
const toolSession_1 = require("./toolSession");
/** How often a running task heartbeats (the worker throttles what reaches the server to 80% of the heartbeat timeout). */
exports.BACKGROUND_HEARTBEAT_MS = 1_000;
function stateOf(r) {
    if (r.interrupted)
        return 'killed';
    if (r.timedOut)
        return 'timed_out';
    if (r.outputCapped)
        return 'failed';
    return r.exitCode === 0 ? 'completed' : 'failed';
}
function createBackgroundTaskCalls(deps) {
    /** The tool context the command runs with: the session's permission, sandbox host and private paths. */
    async function contextFor(input, signal) {
        const session = await (0, tools_1.resolveToolSession)(input.session, deps.toolSettings);
        const resultStore = deps.resultStore(session.sessionId);
        const agent = { ...input.context, cwd: input.task.cwd, readFiles: {} };
        return {
            sessionId: session.sessionId,
            toolUseId: input.task.toolUseId,
            idempotencyKey: `${session.sessionId}/${input.task.toolUseId}`,
            agent,
            permission: (0, toolSession_1.sessionPermission)((0, toolSession_1.withTaskDirectory)(session.permission, session.sessionId), resultStore, (0, toolSession_1.withWorkerHooks)(deps.hooks, session.hooks), agent.cwd, session.mcpServers),
            abortSignal: signal,
            resultStore,
            ...(deps.privatePaths ? { privatePaths: deps.privatePaths } : {}),
            ...(deps.sandboxHost ? { sandboxHost: deps.sandboxHost } : {}),
        };
    }
    /**
     * The whole command: from the Bash call's record in the execution ledger (the task record in the
     * session's context holds a preview); the preview itself when no record is there.
     */
    async function wholeCommand(input) {
        const key = input.session.ledgerKey ?? input.session.sessionId;
        const entry = await deps.ledger.get(key, input.task.toolUseId);
        const recorded = entry?.record?.input?.command;
        return typeof recorded === 'string' ? recorded : input.task.command;
    }
    /** The whole output into the store (best effort: the file stays where the model reads it). */
    async function storeOutput(path, warn) {
        if (!deps.payloads)
            return undefined;
        try {
            return await deps.payloads.putTaskOutput(await node_fs_1.promises.readFile(path, 'utf8'));
        }
        catch (err) {
            warn(`background task output ${path} was not stored: ${err.message}`);
            return undefined;
        }
    }
    async function runBackgroundTask(input, rt) {
        let outputBytes = 0;
        const beat = () => rt.heartbeat({ taskId: input.task.id, outputBytes });
        beat();
        const timer = setInterval(beat, exports.BACKGROUND_HEARTBEAT_MS);
        try {
            let r;
            try {
                const ctx = await contextFor(input, rt.signal);
                const command = await wholeCommand(input);
                r = await (0, bash_1.runBackgroundCommand)({ ...input.task, command }, ctx, (bytes) => {
                    outputBytes = bytes;
                });
            }
            catch (err) {
                if (rt.signal.aborted)
                    return { state: 'killed', exitCode: null, signal: null, outputBytes, error: 'stopped before it started' };
                return { state: 'failed', exitCode: null, signal: null, outputBytes, error: err.message };
            }
            // The reference's last line of a task's output file: how it ended.
            const trailer = r.interrupted
                ? '\n[killed]\n'
                : r.exitCode !== null
                    ? `\n[exited with code ${r.exitCode}]\n`
                    : '';
            if (trailer)
                await node_fs_1.promises.appendFile(input.task.outputPath, trailer).catch(() => undefined);
            const outputRef = await storeOutput(input.task.outputPath, rt.warn);
            return {
                state: stateOf(r),
                exitCode: r.exitCode,
                signal: r.signal,
                outputBytes: r.outputBytes,
                ...(outputRef ? { outputRef } : {}),
                ...(r.sandbox ? { sandboxed: r.sandbox.sandboxed, violations: r.sandbox.violations?.length ?? 0 } : {}),
                ...(r.outputCapped
                    ? { error: `its output passed the ${r.outputCapped.capBytes}-byte limit; its process group was killed` }
                    : {}),
                ...(r.protectedUndone?.length
                    ? { error: `protected paths it wrote were undone: ${r.protectedUndone.join(', ')}` }
                    : {}),
            };
        }
        finally {
            clearInterval(timer);
        }
    }
    // The steps a Monitor's run shares (src/calls/monitorTask.ts): the same context, command and store.
    return { runBackgroundTask, contextFor, wholeCommand, storeOutput };
}
//# sourceMappingURL=backgroundTask.js.map