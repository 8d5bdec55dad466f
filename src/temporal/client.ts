// Client helpers: start, follow and steer sessions from your own code (the CLI uses these too).
import { DurableAgentError } from '../core/errors';
import { isWorkflowNotFound } from './service/errors';
import { turnOfWorkflowId } from '../core/ids';
import { topLevelSessionIdProblem } from '../core/subagents';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import {
  checkMessageSize,
  checkoutAtStart,
  checkSessionInput,
  InvalidSessionInputError,
  sessionInput,
  withAgents,
  type CheckoutStartOptions,
  type SessionOptions,
} from '../sessionInput';
import type { CheckoutControl } from '../worktree/git/checkoutControl';
import { WorkflowUpdateFailedError, WorkflowUpdateStage, type Client, type WorkflowHandle } from '@temporalio/client';
import type { sessionWorkflow } from './workflows/session';
import {
  STATUS_SEARCH_ATTRIBUTE,
  TASK_QUEUE_DEFAULT,
  approveUpdate,
  denyUpdate,
  interruptSignal,
  stopSignal,
  sendMessageSignal,
  statusQuery,
  turnInterruptSignal,
  type ApprovalDecisionInput,
  type SessionInput,
  type SessionResult,
  type SessionStatus,
} from './workflows/definitions';

export {
  BUILTIN_TOOL_NAMES,
  BypassDisabledError,
  CheckoutNotTrustedError,
  DEFAULT_MODEL,
  MAX_MESSAGE_CHARS,
  contextSettings,
  defaultSystemPrompt,
  sessionInput,
  sessionSandbox,
  withAgents,
  type CheckoutStartOptions,
  type SessionOptions,
} from '../sessionInput';

export type SessionHandle = WorkflowHandle<typeof sessionWorkflow>;

export class SessionNotFoundError extends DurableAgentError {
  constructor(readonly sessionId: string) {
    super('NOT_FOUND', `No session with id ${sessionId}. List sessions with \`durable-agent ls\`.`);
  }
}

/** A session that would have to run unsandboxed although its settings say `failIfUnavailable`. */
export class SandboxUnavailableError extends DurableAgentError {
  constructor(reason: string) {
    super(
      'SANDBOX_UNAVAILABLE',
      `The sandbox is unavailable here (${reason}) and sandbox.failIfUnavailable is set: the session was not started. Install bubblewrap, socat and ripgrep, or set sandbox.failIfUnavailable to false.`,
    );
  }
}

/** Whether the namespace has our status search attribute (the dev command registers it). */
export async function hasStatusSearchAttribute(client: Client, namespace = client.options.namespace): Promise<boolean> {
  try {
    const res = await client.connection.operatorService.listSearchAttributes({ namespace });
    return Object.prototype.hasOwnProperty.call(res.customAttributes ?? {}, STATUS_SEARCH_ATTRIBUTE);
  } catch {
    return false;
  }
}

/**
 * One line on the session's sandbox, as this host sees it (`run`, `status` and the audit show it).
 * With `failIfUnavailable` and no sandbox here, throws SandboxUnavailableError. The worker that
 * runs the tools checks again for itself, per call (its record says whether the call was sandboxed),
 * so an "available" probed here in the last hour, with nothing it rests on changed, stands.
 */
export async function sandboxSummary(
  input: Pick<SessionInput, 'sandbox' | 'cwd' | 'additionalDirectories'>,
): Promise<string> {
  // The sandbox's modules, loaded by a start (issue 32: `status`, `approve` and the other commands
  // that only read or steer a session do without them).
  const { currentPlatform, SandboxHost } = await import('../sandbox/host');
  const { describeSandbox, sandboxEnabled } = await import('../sandbox/policy');
  const { registerWritableDirectories } = await import('../sandbox/sessionPlan');
  const { rememberedAvailability } = await import('../sandbox/probeMemory');
  const platform = currentPlatform();
  const dirs = [input.cwd, ...(input.additionalDirectories ?? [])];
  if (!sandboxEnabled(input.sandbox, platform).on) return describeSandbox(input.sandbox, platform, dirs);
  // The probe wraps a command, and the sandbox runtime looks `which` and the shell up by name on
  // process.env.PATH: the directories this session may write are off it first (red team, issue 30,
  // L13: `run --cwd <project>` from elsewhere with `<project>/bin` on the person's PATH).
  registerWritableDirectories(dirs, input.sandbox);
  // An "available" of the last hour with nothing it rests on changed stands (src/sandbox/probeMemory.ts).
  const host = new SandboxHost();
  const available = await rememberedAvailability(() => host.availability());
  if (!available.available && input.sandbox?.failIfUnavailable) throw new SandboxUnavailableError(available.reason);
  return describeSandbox(input.sandbox, platform, dirs, available.available ? undefined : available.reason);
}

/** What starting a session needs, checked at the edge: its id, task queue, input and the start options the server keeps. */
export interface PreparedSessionStart {
  workflowId: string;
  taskQueue: string;
  input: SessionInput;
  staticSummary: string;
  memo: Record<string, unknown>;
  typedSearchAttributes?: Array<{ key: { name: string; type: 'KEYWORD' }; value: string }>;
  /** Control files a checkout brought that the person trusted (`trustCheckout`), one line each. */
  checkout?: { control: CheckoutControl; lines: string[] };
  /** The files its hooks and MCP servers run (a schedule's firing compares them again). */
  runFiles: string[];
}

/** What starting a session takes: its options, its id and task queue, and how a checkout's control files are treated. */
export type StartSessionOptions = SessionOptions & CheckoutStartOptions & { id?: string; taskQueue?: string };

/**
 * The session's input built and validated as `startSession` does (src/sessionInput.ts), without
 * starting anything: `startSession` starts it now, a schedule (src/temporal/schedules.ts) at each firing.
 */
export async function prepareSessionStart(client: Client, opts: StartSessionOptions): Promise<PreparedSessionStart> {
  // The id, the task queue and the checkout options are start options, not part of the session's input.
  const { id, taskQueue, trustCheckout, checkoutSince, ...options } = opts;
  // A subagent's id form is the workflow's own (its files lie inside its parent's): never a start's.
  const idProblem = id === undefined ? undefined : topLevelSessionIdProblem(id);
  if (idProblem) throw new InvalidSessionInputError([idProblem]);
  // A linked worktree's control files that came with a checkout: named, and nothing starts unless
  // trusted (CheckoutNotTrustedError) — before any of them (agents, skills, hook files) is read.
  const checked = await checkoutAtStart(
    {
      cwd: resolve(options.cwd ?? process.cwd()),
      ...(options.additionalDirectories ? { additionalDirectories: options.additionalDirectories } : {}),
      ...(options.hooks ? { hooks: options.hooks } : {}),
      ...(options.mcpServers ? { mcpServers: options.mcpServers } : {}),
    },
    { ...(trustCheckout ? { trustCheckout } : {}), ...(checkoutSince ? { checkoutSince } : {}) },
  );
  // Validated here, at the edge: the workflow checks only its input's fixed shape (src/sessionInput.ts).
  const input = checkSessionInput(await withAgents(sessionInput(options)));
  const sandbox = await sandboxSummary(input);
  if (input.useSearchAttributes === undefined) input.useSearchAttributes = await hasStatusSearchAttribute(client);
  return {
    workflowId: id ?? `session-${randomUUID()}`,
    taskQueue: taskQueue ?? process.env.DURABLE_AGENT_TASK_QUEUE ?? TASK_QUEUE_DEFAULT,
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
      ? { typedSearchAttributes: [{ key: { name: STATUS_SEARCH_ATTRIBUTE, type: 'KEYWORD' }, value: 'running' }] }
      : {}),
    ...(checked.control ? { checkout: { control: checked.control, lines: checked.lines } } : {}),
    runFiles: checked.runFiles,
  };
}

/**
 * Starts a session. In a linked worktree whose control files came with a checkout and differ from
 * the main checkout's, throws CheckoutNotTrustedError naming them (nothing started) unless
 * `trustCheckout: true`.
 */
export async function startSession(client: Client, opts: StartSessionOptions): Promise<SessionHandle> {
  return startPreparedSession(client, await prepareSessionStart(client, opts));
}

/** Starts what prepareSessionStart prepared (`run` prints what it checked in between). */
export async function startPreparedSession(client: Client, p: PreparedSessionStart): Promise<SessionHandle> {
  return client.workflow.start<typeof sessionWorkflow>('sessionWorkflow', {
    workflowId: p.workflowId,
    taskQueue: p.taskQueue,
    args: [p.input],
    staticSummary: p.staticSummary,
    memo: p.memo,
    ...(p.typedSearchAttributes ? { typedSearchAttributes: p.typedSearchAttributes } : {}),
  } as never);
}

export function sessionHandle(client: Client, sessionId: string): SessionHandle {
  return client.workflow.getHandle<typeof sessionWorkflow>(sessionId);
}

/** The session's status; throws SessionNotFoundError for an unknown id. */
export async function sessionStatus(client: Client, sessionId: string): Promise<SessionStatus> {
  try {
    return await sessionHandle(client, sessionId).query(statusQuery);
  } catch (err) {
    if (isWorkflowNotFound(err)) throw new SessionNotFoundError(sessionId);
    throw err;
  }
}

/** A session that has ended: it takes no more messages, interrupts or approvals. */
export class SessionEndedError extends DurableAgentError {
  constructor(
    readonly sessionId: string,
    readonly status: string,
  ) {
    super(
      'SESSION_ENDED',
      `session ${sessionId} has ended (${status}): nothing to send to it. Start a new one with \`durable-agent run\`.`,
    );
  }
}

/**
 * Checks that the session exists and still runs, with `describe` (answered by the server alone:
 * a signal or update needs no live worker to be accepted, so neither does this check). Returns
 * the running turn's workflow id, if any, and the session's task queue.
 */
export async function runningSession(
  client: Client,
  sessionId: string,
): Promise<{ currentTurnWorkflowId?: string; taskQueue: string }> {
  let desc;
  try {
    desc = await sessionHandle(client, sessionId).describe();
  } catch (err) {
    if (isWorkflowNotFound(err)) throw new SessionNotFoundError(sessionId);
    throw err;
  }
  if (desc.status.name !== 'RUNNING') throw new SessionEndedError(sessionId, desc.status.name.toLowerCase());
  const turn = (desc.raw.pendingChildren ?? [])
    .map((c) => c.workflowId ?? '')
    .find((w) => turnOfWorkflowId(sessionId, w) !== undefined);
  return { ...(turn ? { currentTurnWorkflowId: turn } : {}), taskQueue: desc.taskQueue };
}

/**
 * Ends a session's loop of wake-ups and cron jobs: they are dropped and the session ends at its
 * next idle point (a running turn finishes first; `interrupt` stops one). A signal: the server
 * takes it with or without a worker up.
 */
export async function stopSession(client: Client, sessionId: string, by?: string): Promise<void> {
  await runningSession(client, sessionId);
  await signalRunning(sessionHandle(client, sessionId).signal(stopSignal, by ? { by } : {}), sessionId);
}

export async function interruptSession(client: Client, sessionId: string, by?: string): Promise<void> {
  // The session forwards the interrupt to its running turn; signalling the turn directly as well
  // saves a workflow task on the way to cancelling in-flight tools (the turn's handler is
  // idempotent). Both are signals: the server takes them with or without a worker up.
  const { currentTurnWorkflowId } = await runningSession(client, sessionId);
  if (currentTurnWorkflowId) {
    await client.workflow
      .getHandle(currentTurnWorkflowId)
      .signal(turnInterruptSignal)
      .catch(() => undefined); // the turn ended meanwhile
  }
  await signalRunning(sessionHandle(client, sessionId).signal(interruptSignal, by ? { by } : {}), sessionId);
}

/**
 * A signal to a session `runningSession` found running: one that ended between the two (the server
 * answers "workflow execution already completed") is the SessionEndedError a later call would give.
 */
async function signalRunning(sent: Promise<void>, sessionId: string): Promise<void> {
  try {
    await sent;
  } catch (err) {
    if (isWorkflowNotFound(err)) throw new SessionEndedError(sessionId, 'ended');
    throw err;
  }
}

export async function sendMessage(client: Client, sessionId: string, text: string): Promise<void> {
  checkMessageSize('message', text);
  await runningSession(client, sessionId);
  await signalRunning(sessionHandle(client, sessionId).signal(sendMessageSignal, { text }), sessionId);
}

/** An approve/deny that the session refused (nothing pending under that id). */
export class ApprovalRejectedError extends DurableAgentError {
  constructor(message: string) {
    super('NOT_PENDING', message);
  }
}

/**
 * The answer to an approve/deny: applied (the session took it), or pending — the server has it,
 * but no worker has taken it yet (an update needs a worker to be accepted and applied; it waits
 * for one, unless the Temporal server restarts first).
 */
export type ApprovalAnswer =
  | { status: 'applied'; toolUseId: string }
  /** The call was decided otherwise first (e.g. the approval timed out): `decision` is what counted. */
  | { status: 'not_applied'; toolUseId: string; decision: 'approve' | 'deny'; outcome: string }
  | { status: 'pending'; toolUseId?: string; taskQueue: string };

/** How long approve/deny wait for a worker to take the decision before answering "pending". Env DURABLE_AGENT_UPDATE_WAIT_MS. */
function updateWaitMs(): number {
  const n = Number(process.env.DURABLE_AGENT_UPDATE_WAIT_MS);
  return Number.isFinite(n) && n > 0 ? n : 10_000;
}

async function decide(
  client: Client,
  sessionId: string,
  update: typeof approveUpdate,
  arg: ApprovalDecisionInput,
): Promise<ApprovalAnswer> {
  const { taskQueue } = await runningSession(client, sessionId);
  const handle = sessionHandle(client, sessionId);
  try {
    const started = handle.startUpdate(update, { args: [arg], waitForStage: WorkflowUpdateStage.ACCEPTED });
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<'pending'>((resolve) => {
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
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) throw new ApprovalRejectedError(err.cause?.message ?? err.message);
    if (isWorkflowNotFound(err)) {
      // The session ended between the check and the update.
      const desc = await handle.describe().catch(() => undefined);
      if (desc)
        throw new ApprovalRejectedError(
          `session ${sessionId} has ended (${desc.status.name.toLowerCase()}); nothing is waiting for approval`,
        );
      throw new SessionNotFoundError(sessionId);
    }
    throw err;
  }
}

export async function approveToolUse(
  client: Client,
  sessionId: string,
  toolUseId?: string,
  by?: string,
): Promise<ApprovalAnswer> {
  return decide(client, sessionId, approveUpdate, {
    decision: 'approve',
    ...(toolUseId ? { toolUseId } : {}),
    ...(by ? { by } : {}),
  });
}

export async function denyToolUse(
  client: Client,
  sessionId: string,
  toolUseId?: string,
  reason?: string,
  by?: string,
): Promise<ApprovalAnswer> {
  return decide(client, sessionId, denyUpdate, {
    decision: 'deny',
    ...(toolUseId ? { toolUseId } : {}),
    ...(reason ? { reason } : {}),
    ...(by ? { by } : {}),
  });
}

export async function sessionResult(client: Client, sessionId: string): Promise<SessionResult> {
  return sessionHandle(client, sessionId).result();
}
