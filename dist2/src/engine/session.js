"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_IDLE_TIMEOUT_MS = exports.DEFAULT_APPROVAL_TIMEOUT_MS = exports.END_REASONS = exports.MAX_SESSION_CONTROL_WRITES = void 0;
exports.sessionConfig = sessionConfig;
exports.initialSessionState = initialSessionState;
exports.migrateSessionState = migrateSessionState;
exports.addUsage = addUsage;
exports.totalTokens = totalTokens;
exports.limitReached = limitReached;
exports.applyTurnReport = applyTurnReport;
exports.runSession = runSession;
exports.idleNotification = idleNotification;
exports.approvalNotification = approvalNotification;
const hooks_1 = require("./hooks");
const memory_1 = require("./memory");
const autonomy_1 = require("./autonomy");
exports.MAX_SESSION_CONTROL_WRITES = 100;
/** Every end reason, in one place: both schedulers say the same thing. */
exports.END_REASONS = {
    maxTurns: (limit) => `reached the limit of ${limit} turns`,
    maxTokens: (limit, used) => `reached the limit of ${limit} tokens (used ${used})`,
    interrupted: 'interrupted by user',
    idle: 'interrupted; no follow-up message arrived',
    modelMaxTokens: 'the model hit max_tokens',
    endTurn: 'the model ended its turn',
    hookStop: (hook, reason) => `stopped by a hook (${hook}): ${reason}`,
    promptBlocked: (reason) => `the prompt was blocked by a UserPromptSubmit hook: ${reason}`,
    failed: (turn, cause) => `turn ${turn} failed: ${cause}`,
    cancelled: 'cancelled',
};
exports.DEFAULT_APPROVAL_TIMEOUT_MS = 24 * 3600_000;
exports.DEFAULT_IDLE_TIMEOUT_MS = 7 * 24 * 3600_000;
/** The session's limits from its input, with the defaults both schedulers use. */
function sessionConfig(input, subagent = false, sessionStartSources = true) {
    return {
        ...(subagent ? { subagent: true } : {}),
        ...(sessionStartSources ? { sessionStartSources: true } : {}),
        ...(input.maxTurns !== undefined ? { maxTurns: input.maxTurns } : {}),
        ...(input.maxTotalTokens !== undefined ? { maxTotalTokens: input.maxTotalTokens } : {}),
        onInterrupt: input.onInterrupt ?? 'wait',
        idleTimeoutMs: input.idleTimeoutMs ?? exports.DEFAULT_IDLE_TIMEOUT_MS,
    };
}
function initialSessionState(prompt, context) {
    return {
        turn: 0,
        head: null,
        context,
        usage: { input_tokens: 0, output_tokens: 0 },
        pendingMessages: [prompt],
        toolCallCounts: {},
        runs: 0,
        lastText: '',
        interrupted: false,
    };
}
/** A state carried from an older version: fills what it lacks (no I/O, so it can run in a workflow). */
function migrateSessionState(state) {
    if (!state.toolCallCounts) {
        // A run continued from an older version carried the per-id map: count it once.
        state.toolCallCounts = {};
        for (const st of Object.values(state.ledger ?? {}))
            state.toolCallCounts[st] = (state.toolCallCounts[st] ?? 0) + 1;
        delete state.ledger;
    }
    return state;
}
/** Sums usage, cache counters included (absent counters stay absent). */
function addUsage(a, b) {
    const out = {
        input_tokens: a.input_tokens + b.input_tokens,
        output_tokens: a.output_tokens + b.output_tokens,
    };
    for (const k of ['cache_creation_input_tokens', 'cache_read_input_tokens']) {
        if (a[k] !== undefined || b[k] !== undefined)
            out[k] = (a[k] ?? 0) + (b[k] ?? 0);
    }
    return out;
}
function totalTokens(u) {
    return u.input_tokens + u.output_tokens;
}
/** The session's own limits, checked before each turn. */
function limitReached(state, config) {
    if (config.maxTurns !== undefined && state.turn >= config.maxTurns)
        return { kind: 'end', status: 'max_turns', endReason: exports.END_REASONS.maxTurns(config.maxTurns) };
    const used = totalTokens(state.usage);
    if (config.maxTotalTokens !== undefined && used >= config.maxTotalTokens) {
        return { kind: 'end', status: 'max_tokens', endReason: exports.END_REASONS.maxTokens(config.maxTotalTokens, used) };
    }
    return undefined;
}
/**
 * Folds a finished turn into the state and decides what comes next: undefined to run another
 * turn (tool results to answer, a follow-up arrived, or an interrupt to wait on), or the end.
 * `taken` is how many pending messages the turn was given.
 */
function applyTurnReport(state, report, taken) {
    if (report.reason === 'failed')
        return {
            kind: 'end',
            status: 'failed',
            endReason: exports.END_REASONS.failed(state.turn, report.error ?? 'unknown error'),
        };
    if (report.consumedAppend)
        state.pendingMessages.splice(0, taken);
    state.head = report.head;
    state.context = report.context;
    if (report.readFilesRef !== undefined)
        state.readFilesRef = report.readFilesRef;
    if (report.usage) {
        state.usage = addUsage(state.usage, report.usage);
        state.lastUsage = report.usage;
    }
    if (report.compactionUsage)
        state.usage = addUsage(state.usage, report.compactionUsage);
    if (report.view)
        state.view = report.view;
    if (report.compactions?.length)
        state.compactions = [...(state.compactions ?? []), ...report.compactions].slice(-100);
    for (const r of report.records)
        state.toolCallCounts[r.status] = (state.toolCallCounts[r.status] ?? 0) + 1;
    const writes = report.records.flatMap((r) => (r.controlWrites ?? []).map((w) => ({
        ...w,
        turn: state.turn,
        toolUseId: r.toolUseId ?? '',
        toolName: r.toolName ?? '',
        summary: (r.summary ?? '').slice(0, 200),
    })));
    if (writes.length > 0)
        state.controlWrites = [...(state.controlWrites ?? []), ...writes].slice(-exports.MAX_SESSION_CONTROL_WRITES);
    if (report.text)
        state.lastText = report.text;
    state.lastReason = report.reason;
    if (report.reason === 'interrupted') {
        state.interrupted = true;
        return undefined;
    }
    // A hook's `continue: false` stops the session after the turn (its results are recorded).
    const stop = report.records.find((r) => r.stop)?.stop;
    if (stop)
        return { kind: 'end', status: 'stopped', endReason: exports.END_REASONS.hookStop(stop.hook, stop.reason) };
    if (report.reason === 'tool_use')
        return undefined;
    if (state.pendingMessages.length > 0)
        return undefined; // a follow-up arrived during the turn
    if (report.reason === 'max_tokens')
        return { kind: 'end', status: 'completed', endReason: exports.END_REASONS.modelMaxTokens };
    return { kind: 'end', status: 'completed', endReason: exports.END_REASONS.endTurn };
}
/**
 * Runs turns until the session ends or should continue-as-new. Mutates `state` (the scheduler
 * owns it: queries read it, signal handlers push follow-ups into `state.pendingMessages`).
 */
async function runSession(state, config, executor) {
    const outcome = await runSessionLoop(state, config, executor);
    if (outcome.kind === 'end' && !config.subagent) {
        // SessionEnd hooks cannot change the outcome; their answers are notices.
        await sessionHooks(state, executor, 'SessionEnd', { reason: 'other', end_status: outcome.status });
    }
    return outcome;
}
/** Runs an event's hooks when any is configured and reads their answers (undefined: none ran). */
async function sessionHooks(state, executor, event, fields) {
    if (!executor.runHooks || !executor.hasHooks?.(event))
        return undefined;
    const runs = await executor.runHooks(event, fields, state.head);
    if (runs.length === 0)
        return undefined;
    const d = (0, hooks_1.decideSessionHooks)(event, runs);
    if (d.notices.length)
        (state.hookNotices ??= []).push(...d.notices);
    if (state.hookNotices && state.hookNotices.length > 20)
        state.hookNotices.splice(0, state.hookNotices.length - 20);
    return d;
}
function hookEnd(stop) {
    return { kind: 'end', status: 'stopped', endReason: exports.END_REASONS.hookStop(stop.hook, stop.reason) };
}
/** The session is idle, waiting for a message: a Notification hook may page someone. */
function idleNotification() {
    return { message: 'Claude is waiting for your input', notification_type: 'idle_prompt' };
}
/** A call waits for approval: the Notification hook's fields. */
function approvalNotification(toolName) {
    return { message: `Claude needs your permission to use ${toolName}`, notification_type: 'permission_prompt' };
}
async function runSessionLoop(state, config, executor) {
    let turnsThisRun = 0;
    if (!state.sessionStarted) {
        state.sessionStarted = true;
        const event = config.subagent ? 'SubagentStart' : 'SessionStart';
        const d = await sessionHooks(state, executor, event, config.subagent ? {} : { source: 'startup' });
        if (d?.stop)
            return hookEnd(d.stop);
        if (d?.additionalContext.length)
            (state.hookContext ??= []).push(...d.additionalContext.map((c) => `${event} hook additional context: ${c}`));
    }
    executor.onStatus?.(state.interrupted ? 'interrupted' : 'running', 'starting');
    for (;;) {
        if (executor.takeInterrupt())
            state.interrupted = true;
        if (state.interrupted) {
            if (config.onInterrupt === 'end')
                return { kind: 'end', status: 'interrupted', endReason: exports.END_REASONS.interrupted };
            executor.onStatus?.('interrupted', 'waiting_for_message');
            if (state.pendingMessages.length === 0)
                await sessionHooks(state, executor, 'Notification', idleNotification());
            // Returns at once when a follow-up is already pending.
            const got = await executor.waitForMessage(config.idleTimeoutMs);
            if (!got)
                return { kind: 'end', status: 'interrupted', endReason: exports.END_REASONS.idle };
            state.interrupted = false;
            executor.takeInterrupt(); // an interrupt while nothing ran has nothing left to stop
            executor.onStatus?.('running', 'waiting_for_message');
        }
        const limit = limitReached(state, config);
        if (limit)
            return limit;
        // Each run runs at least one turn: a run whose history starts above the limit (a small
        // limit, a large carry) would otherwise continue-as-new forever without progress.
        if (turnsThisRun > 0 && executor.shouldCheckpoint?.(turnsThisRun)) {
            await executor.drain?.();
            // An interrupt that arrived while handlers drained is carried into the next run.
            if (executor.takeInterrupt())
                state.interrupted = true;
            return { kind: 'checkpoint' };
        }
        // UserPromptSubmit: each new prompt, before the model sees it.
        const checked = Math.min(state.promptsChecked ?? 0, state.pendingMessages.length);
        if (checked < state.pendingMessages.length && !config.subagent && executor.hasHooks?.('UserPromptSubmit')) {
            const kept = state.pendingMessages.slice(0, checked);
            let blocked;
            for (const prompt of state.pendingMessages.slice(checked)) {
                // The prompt as the user wrote it: without the CLAUDE.md reminder the first message carries.
                const d = await sessionHooks(state, executor, 'UserPromptSubmit', {
                    prompt: (0, memory_1.splitMemoryReminder)(prompt).prompt,
                });
                if (d?.stop)
                    return hookEnd(d.stop);
                if (d?.block) {
                    blocked = d.block.reason;
                    (state.hookNotices ??= []).push(`UserPromptSubmit hook blocked a prompt: ${d.block.reason}`);
                    continue;
                }
                kept.push(prompt);
                if (d?.additionalContext.length)
                    kept.push(...d.additionalContext.map((c) => `UserPromptSubmit hook additional context: ${c}`));
            }
            state.pendingMessages.splice(0, state.pendingMessages.length, ...kept);
            state.stopHookActive = false;
            // Every prompt blocked and no tool results to answer: the model has nothing to do.
            if (blocked !== undefined && kept.length === 0 && !state.hookContext?.length && state.lastReason !== 'tool_use') {
                return { kind: 'end', status: 'stopped', endReason: exports.END_REASONS.promptBlocked(blocked) };
            }
        }
        state.promptsChecked = state.pendingMessages.length;
        // SessionStart again (compact / resume): its context goes with this turn.
        const again = state.sessionStartAgain;
        if (again) {
            delete state.sessionStartAgain;
            const d = await sessionHooks(state, executor, 'SessionStart', { source: again });
            if (d?.stop)
                return hookEnd(d.stop);
            if (d?.additionalContext.length)
                (state.hookContext ??= []).push(...d.additionalContext.map((c) => `SessionStart hook additional context: ${c}`));
        }
        state.turn++;
        turnsThisRun++;
        const taken = state.pendingMessages.length;
        const context = state.hookContext ?? [];
        const append = [...state.pendingMessages, ...context].map((text) => ({ role: 'user', content: text }));
        executor.onStatus?.('running', 'turn');
        const report = await executor.runTurn(state.turn, append);
        if (report.consumedAppend && context.length)
            state.hookContext = [];
        if (report.consumedAppend)
            delete state.memoryRef;
        if (config.sessionStartSources && !config.subagent) {
            if (report.records.some((r) => r.status === 'unknown_outcome' || (r.attempts ?? 1) > 1))
                state.sessionStartAgain = 'resume';
            else if (report.compactions?.length)
                state.sessionStartAgain = 'compact';
        }
        const end = applyTurnReport(state, report, taken);
        if (report.consumedAppend)
            state.promptsChecked = Math.max(0, (state.promptsChecked ?? 0) - taken);
        if (end && end.status === 'completed' && end.endReason === exports.END_REASONS.endTurn) {
            // Stop (a subagent: SubagentStop) hooks: a block keeps the session going with the reason as the next message.
            const d = await sessionHooks(state, executor, config.subagent ? 'SubagentStop' : 'Stop', {
                stop_hook_active: state.stopHookActive === true,
                last_assistant_message: state.lastText,
            });
            if (d?.stop)
                return hookEnd(d.stop);
            if (d?.block) {
                state.stopHookActive = true;
                // The reference's wording for Stop and SubagentStop alike (checked against Claude Code 2.1.197).
                (state.hookContext ??= []).push(`Stop hook feedback:\n${d.block.reason}`);
                continue;
            }
        }
        // A task that ended after the turn did (its notification queued in the same workflow activation
        // as the turn's end, or while Stop hooks ran) leaves a queued message: a turn for it, as if it
        // had come before the turn's end.
        if (end?.status === 'completed' && state.pendingMessages.length > 0 && executor.wakesForQueued?.())
            continue;
        if (end?.status === 'completed' && executor.waitForWork && (0, autonomy_1.hasPendingWork)(state.context.autonomy)) {
            executor.onStatus?.('waiting', 'waiting_for_work');
            if (await executor.waitForWork(state))
                continue;
        }
        if (end)
            return end;
    }
}
//# sourceMappingURL=session.js.map