// What an in-process session starts from (sessionRun.ts `LocalSessionRun`): its checked input, its
// id, store and dependencies, its tools' settings, its subagents' definitions and its first state;
// and the start's checkout check. The peer of what the session workflow reads at its start.
import { randomUUID } from 'node:crypto';
import type { ToolSessionSettings } from '../toolCall/tools';
import { createCallDeps, type AgentDepsOptions } from '../runtime/callDeps';
import { initialContext } from '../core/context';
import { firstMessage, memoryRefOf } from '../core/memoryReminder';
import { DEFAULT_APPROVAL_TIMEOUT_MS, initialSessionState, type SessionState } from '../core/session';
import {
  checkoutAtStart,
  checkSessionInput,
  InvalidSessionInputError,
  sessionInput,
  withAgents,
} from '../sessionInput';
import { topLevelSessionIdProblem } from '../core/subagents';
import { disposeNow, localStore, type LocalStore } from './store';
import { localToolSession } from './subagents';
import type { LocalDeps } from './turn';
import type { LocalSessionOptions } from './types';

export interface LocalSessionStart {
  readonly input: ReturnType<typeof sessionInput>;
  readonly sessionId: string;
  /** The session's store: the caller's, or a temporary one removed at the end (store.ts). */
  readonly store: LocalStore;
  /** The worker's options with that store. */
  readonly worker: AgentDepsOptions;
  readonly deps: LocalDeps;
  readonly session: ToolSessionSettings;
  readonly approvalTimeoutMs: number;
  readonly agentsReady: Promise<void>;
  readonly state: SessionState;
}

/** Checks the options and builds what the session runs with (nothing runs yet). */
export function prepareLocalSession(opts: LocalSessionOptions, workerOpts: AgentDepsOptions): LocalSessionStart {
  // The checkout options are the start's, not the input's (checked in run(), before anything runs).
  const { trustCheckout: _t, checkoutSince: _s, ...options } = opts;
  const input = checkSessionInput(sessionInput(options));
  const sessionId = opts.sessionId ?? `local-${randomUUID()}`;
  // A subagent's id form is for the Agent tool's child sessions only (their files lie inside the parent's).
  const idProblem = opts.parent ? undefined : topLevelSessionIdProblem(sessionId);
  if (idProblem) throw new InvalidSessionInputError([idProblem]);
  const store = localStore(workerOpts);
  const worker = store.worker;
  let deps: LocalDeps;
  try {
    deps = createCallDeps(worker);
  } catch (err) {
    disposeNow(store);
    throw err;
  }
  const session = localToolSession(input, sessionId);
  // Subagents: in-process child sessions — the same algorithm as the child workflows. Agent files are read once, at start.
  const agentsReady =
    input.tools.includes('Agent') && !input.parent
      ? withAgents(input).then((i) => void (i.agents && (session.agents = i.agents)))
      : Promise.resolve();
  agentsReady.catch(() => undefined); // reported by the first model call that awaits it
  const state = initialSessionState(
    firstMessage(input.prompt, input.memory),
    initialContext(input.cwd, input.additionalDirectories ?? []),
  );
  if (memoryRefOf(input.memory)) state.memoryRef = memoryRefOf(input.memory);
  // The zone cron jobs and wake-ups read, fixed for the session (as the session workflow does).
  if (input.timeZone) state.context.timeZone = input.timeZone;
  return {
    input,
    sessionId,
    store,
    worker,
    deps,
    session,
    approvalTimeoutMs: input.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
    agentsReady,
    state,
  };
}

/**
 * A linked worktree's control files that came with a checkout: the same check as every start
 * (CheckoutNotTrustedError, the result rejects) before a turn, a hook or an MCP server runs (a
 * child session has its parent's configuration: not checked). Resolves to the refusal, or undefined.
 */
export function checkoutRefusal(input: LocalSessionStart['input'], opts: LocalSessionOptions): Promise<unknown> {
  return checkoutAtStart(input, {
    ...(opts.trustCheckout ? { trustCheckout: true } : {}),
    ...(opts.checkoutSince ? { checkoutSince: opts.checkoutSince } : {}),
  }).then(
    () => undefined,
    (err: unknown) => err,
  );
}
