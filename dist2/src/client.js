"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ApprovalRejectedError = exports.SessionEndedError = exports.SandboxUnavailableError = exports.SessionNotFoundError = exports.withAgents = exports.sessionSandbox = exports.sessionInput = exports.defaultSystemPrompt = exports.contextSettings = exports.MAX_MESSAGE_CHARS = exports.DEFAULT_MODEL = exports.BypassDisabledError = exports.BUILTIN_TOOL_NAMES = void 0;
exports.hasStatusSearchAttribute = hasStatusSearchAttribute;
exports.sandboxSummary = sandboxSummary;
exports.prepareSessionStart = prepareSessionStart;
exports.startSession = startSession;
exports.sessionHandle = sessionHandle;
exports.sessionStatus = sessionStatus;
exports.runningSession = runningSession;
exports.stopSession = stopSession;
exports.interruptSession = interruptSession;
exports.sendMessage = sendMessage;
exports.approveToolUse = approveToolUse;
exports.denyToolUse = denyToolUse;
exports.sessionResult = sessionResult;
// Client helpers: start, follow and steer sessions from your own code (the CLI uses these too).
const errors_1 = require("./engine/errors");
const errors_2 = require("./temporal/errors");
const ids_1 = require("./engine/ids");
const node_crypto_1 = require("node:crypto");
const sessionInput_1 = require("./sessionInput");
const client_1 = require("@temporalio/client");
const definitions_1 = require("./workflows/definitions");
const host_1 = require("./sandbox/host");
const policy_1 = require("./sandbox/policy");
var sessionInput_2 = require("./sessionInput");
Object.defineProperty(exports, "BUILTIN_TOOL_NAMES", { enumerable: true, get: function () { return sessionInput_2.BUILTIN_TOOL_NAMES; } });
Object.defineProperty(exports, "BypassDisabledError", { enumerable: true, get: function () { return sessionInput_2.BypassDisabledError; } });
Object.defineProperty(exports, "DEFAULT_MODEL", { enumerable: true, get: function () { return sessionInput_2.DEFAULT_MODEL; } });
Object.defineProperty(exports, "MAX_MESSAGE_CHARS", { enumerable: true, get: function () { return sessionInput_2.MAX_MESSAGE_CHARS; } });
Object.defineProperty(exports, "contextSettings", { enumerable: true, get: function () { return sessionInput_2.contextSettings; } });
Object.defineProperty(exports, "defaultSystemPrompt", { enumerable: true, get: function () { return sessionInput_2.defaultSystemPrompt; } });
Object.defineProperty(exports, "sessionInput", { enumerable: true, get: function () { return sessionInput_2.sessionInput; } });
Object.defineProperty(exports, "sessionSandbox", { enumerable: true, get: function () { return sessionInput_2.sessionSandbox; } });
Object.defineProperty(exports, "withAgents", { enumerable: true, get: function () { return sessionInput_2.withAgents; } });
class SessionNotFoundError extends errors_1.DurableAgentError {
    sessionId;
    constructor(sessionId) {
        super('NOT_FOUND', `No session with id ${sessionId}. List sessions with \`durable-agent ls\`.`);
        this.sessionId = sessionId;
    }
}
exports.SessionNotFoundError = SessionNotFoundError;
/** A session that would have to run unsandboxed although its settings say `failIfUnavailable`. */
class SandboxUnavailableError extends errors_1.DurableAgentError {
    constructor(reason) {
        super('SANDBOX_UNAVAILABLE', `The sandbox is unavailable here (${reason}) and sandbox.failIfUnavailable is set: the session was not started. Install bubblewrap, socat and ripgrep, or set sandbox.failIfUnavailable to false.`);
    }
}
exports.SandboxUnavailableError = SandboxUnavailableError;
/** Whether the namespace has our status search attribute (the dev command registers it). */
async function hasStatusSearchAttribute(client, namespace = client.options.namespace) {
    try {
        const res = await client.connection.operatorService.listSearchAttributes({ namespace });
        return Object.prototype.hasOwnProperty.call(res.customAttributes ?? {}, definitions_1.STATUS_SEARCH_ATTRIBUTE);
    }
    catch {
        return false;
    }
}
/**
 * One line on the session's sandbox, as this host sees it (`run`, `status` and the audit show it).
 * With `failIfUnavailable` and no sandbox here, throws SandboxUnavailableError. The worker that
 * runs the tools checks again for itself, per call (its record says whether the call was sandboxed).
 */
async function sandboxSummary(input) {
    const platform = (0, host_1.currentPlatform)();
    const dirs = [input.cwd, ...(input.additionalDirectories ?? [])];
    if (!(0, policy_1.sandboxEnabled)(input.sandbox, platform).on)
        return (0, policy_1.describeSandbox)(input.sandbox, platform, dirs);
    const available = await new host_1.SandboxHost().availability();
    if (!available.available && input.sandbox?.failIfUnavailable)
        throw new SandboxUnavailableError(available.reason);
    return (0, policy_1.describeSandbox)(input.sandbox, platform, dirs, available.available ? undefined : available.reason);
}
/**
 * The session's input built and validated as `startSession` does (src/sessionInput.ts), without
 * starting anything: `startSession` starts it now, a schedule (src/schedules.ts) at each firing.
 */
async function prepareSessionStart(client, opts) {
    // The id and the task queue are start options, not part of the session's input.
    const { id, taskQueue, ...options } = opts;
    // Validated here, at the edge: the workflow checks only its input's fixed shape (src/sessionInput.ts).
    const input = (0, sessionInput_1.checkSessionInput)(await (0, sessionInput_1.withAgents)((0, sessionInput_1.sessionInput)(options)));
    const sandbox = await sandboxSummary(input);
    if (input.useSearchAttributes === undefined)
        input.useSearchAttributes = await hasStatusSearchAttribute(client);
    return {
        workflowId: id ?? `session-${(0, node_crypto_1.randomUUID)()}`,
        taskQueue: taskQueue ?? process.env.DURABLE_AGENT_TASK_QUEUE ?? definitions_1.TASK_QUEUE_DEFAULT,
        input,
        staticSummary: `Session: ${input.prompt.replace(/\s+/g, ' ').slice(0, 120)}`,
        memo: {
            prompt: input.prompt.slice(0, 500),
            cwd: input.cwd,
            model: input.model.model,
            sandbox,
            settings: input.settingsSources ?? [],
            memory: input.memory?.files ?? [],
        },
        ...(input.useSearchAttributes
            ? { typedSearchAttributes: [{ key: { name: definitions_1.STATUS_SEARCH_ATTRIBUTE, type: 'KEYWORD' }, value: 'running' }] }
            : {}),
    };
}
async function startSession(client, opts) {
    const p = await prepareSessionStart(client, opts);
    return client.workflow.start('sessionWorkflow', {
        workflowId: p.workflowId,
        taskQueue: p.taskQueue,
        args: [p.input],
        staticSummary: p.staticSummary,
        memo: p.memo,
        ...(p.typedSearchAttributes ? { typedSearchAttributes: p.typedSearchAttributes } : {}),
    });
}
function sessionHandle(client, sessionId) {
    return client.workflow.getHandle(sessionId);
}
/** The session's status; throws SessionNotFoundError for an unknown id. */
async function sessionStatus(client, sessionId) {
    try {
        return await sessionHandle(client, sessionId).query(definitions_1.statusQuery);
    }
    catch (err) {
        if ((0, errors_2.isWorkflowNotFound)(err))
            throw new SessionNotFoundError(sessionId);
        throw err;
    }
}
/** A session that has ended: it takes no more messages, interrupts or approvals. */
class SessionEndedError extends errors_1.DurableAgentError {
    sessionId;
    status;
    constructor(sessionId, status) {
        super('SESSION_ENDED', `session ${sessionId} has ended (${status}): nothing to send to it. Start a new one with \`durable-agent run\`.`);
        this.sessionId = sessionId;
        this.status = status;
    }
}
exports.SessionEndedError = SessionEndedError;
/**
 * Checks that the session exists and still runs, with `describe` (answered by the server alone:
 * a signal or update needs no live worker to be accepted, so neither does this check). Returns
 * the running turn's workflow id, if any, and the session's task queue.
 */
async function runningSession(client, sessionId) {
    let desc;
    try {
        desc = await sessionHandle(client, sessionId).describe();
    }
    catch (err) {
        if ((0, errors_2.isWorkflowNotFound)(err))
            throw new SessionNotFoundError(sessionId);
        throw err;
    }
    if (desc.status.name !== 'RUNNING')
        throw new SessionEndedError(sessionId, desc.status.name.toLowerCase());
    const turn = (desc.raw.pendingChildren ?? [])
        .map((c) => c.workflowId ?? '')
        .find((w) => (0, ids_1.turnOfWorkflowId)(sessionId, w) !== undefined);
    return { ...(turn ? { currentTurnWorkflowId: turn } : {}), taskQueue: desc.taskQueue };
}
/**
 * Ends a session's loop of wake-ups and cron jobs: they are dropped and the session ends at its
 * next idle point (a running turn finishes first; `interrupt` stops one). A signal: the server
 * takes it with or without a worker up.
 */
async function stopSession(client, sessionId, by) {
    await runningSession(client, sessionId);
    await sessionHandle(client, sessionId).signal(definitions_1.stopSignal, by ? { by } : {});
}
async function interruptSession(client, sessionId, by) {
    // The session forwards the interrupt to its running turn; signalling the turn directly as well
    // saves a workflow task on the way to cancelling in-flight tools (the turn's handler is
    // idempotent). Both are signals: the server takes them with or without a worker up.
    const { currentTurnWorkflowId } = await runningSession(client, sessionId);
    if (currentTurnWorkflowId) {
        await client.workflow
            .getHandle(currentTurnWorkflowId)
            .signal(definitions_1.turnInterruptSignal)
            .catch(() => undefined); // the turn ended meanwhile
    }
    await sessionHandle(client, sessionId).signal(definitions_1.interruptSignal, by ? { by } : {});
}
async function sendMessage(client, sessionId, text) {
    (0, sessionInput_1.checkMessageSize)('message', text);
    await runningSession(client, sessionId);
    await sessionHandle(client, sessionId).signal(definitions_1.sendMessageSignal, { text });
}
/** An approve/deny that the session refused (nothing pending under that id). */
class ApprovalRejectedError extends errors_1.DurableAgentError {
    constructor(message) {
        super('NOT_PENDING', message);
    }
}
exports.ApprovalRejectedError = ApprovalRejectedError;
/** How long approve/deny wait for a worker to take the decision before answering "pending". Env DURABLE_AGENT_UPDATE_WAIT_MS. */
function updateWaitMs() {
    const n = Number(process.env.DURABLE_AGENT_UPDATE_WAIT_MS);
    return Number.isFinite(n) && n > 0 ? n : 10_000;
}
async function decide(client, sessionId, update, arg) {
    const { taskQueue } = await runningSession(client, sessionId);
    const handle = sessionHandle(client, sessionId);
    try {
        const started = handle.startUpdate(update, { args: [arg], waitForStage: client_1.WorkflowUpdateStage.ACCEPTED });
        let timer;
        const waited = new Promise((resolve) => {
            timer = setTimeout(() => resolve('pending'), updateWaitMs());
        });
        const first = await Promise.race([started, waited]).finally(() => clearTimeout(timer));
        if (first === 'pending') {
            started.catch(() => undefined); // left to the server: a worker takes it when one runs
            return { status: 'pending', ...(arg.toolUseId ? { toolUseId: arg.toolUseId } : {}), taskQueue };
        }
        const r = await first.result();
        if (r.applied === false)
            return {
                status: 'not_applied',
                toolUseId: r.toolUseId,
                decision: r.decision,
                outcome: r.outcome ?? 'the decision was not applied',
            };
        return { status: 'applied', toolUseId: r.toolUseId };
    }
    catch (err) {
        if (err instanceof client_1.WorkflowUpdateFailedError)
            throw new ApprovalRejectedError(err.cause?.message ?? err.message);
        if ((0, errors_2.isWorkflowNotFound)(err)) {
            // The session ended between the check and the update.
            const desc = await handle.describe().catch(() => undefined);
            if (desc)
                throw new ApprovalRejectedError(`session ${sessionId} has ended (${desc.status.name.toLowerCase()}); nothing is waiting for approval`);
            throw new SessionNotFoundError(sessionId);
        }
        throw err;
    }
}
async function approveToolUse(client, sessionId, toolUseId, by) {
    return decide(client, sessionId, definitions_1.approveUpdate, {
        decision: 'approve',
        ...(toolUseId ? { toolUseId } : {}),
        ...(by ? { by } : {}),
    });
}
async function denyToolUse(client, sessionId, toolUseId, reason, by) {
    return decide(client, sessionId, definitions_1.denyUpdate, {
        decision: 'deny',
        ...(toolUseId ? { toolUseId } : {}),
        ...(reason ? { reason } : {}),
        ...(by ? { by } : {}),
    });
}
async function sessionResult(client, sessionId) {
    return sessionHandle(client, sessionId).result();
}
//# sourceMappingURL=client.js.map