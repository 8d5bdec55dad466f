// Notifications (issue 35): what a session tells a person when it needs one or is done — by a
// webhook (a POST of `SessionNotification`, delivered by the `deliverNotification` activity with
// retries) and by the reference's Notification hook. Pure: the kinds, which status transition is
// which kind, the body, its idempotency key, the approval's command and the hook's fields. The
// body holds ids, names, the status and our own texts — never a tool's input, a tool's or the
// model's output, a prompt or a credential (docs/deployment.md "Notifications").

/** What happened. `budget_exceeded` is raised by whoever sets that status (the kind is all it needs). */
export const NOTIFICATION_KINDS = [
  'needs_approval',
  'completed',
  'failed',
  'budget_exceeded',
  'waiting_for_model',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** A session's notification settings (`SessionInput.notify`): no secret here, it is in the history. */
export interface NotifySettings {
  /** The http(s) URL that receives each notification as a JSON POST. Absent: hooks only. */
  webhook?: string;
  /** Notify only these kinds (absent: every kind). */
  events?: NotificationKind[];
  /** `waiting_for_model` once an outage lasts longer than this (default 10 minutes). */
  waitingForModelAfterMs?: number;
}

export const DEFAULT_WAITING_FOR_MODEL_AFTER_MS = 10 * 60_000;
/** The header that carries the idempotency key (the body's `id` too): a receiver dedupes on it. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** One notification, as the webhook receives it (JSON). */
export interface SessionNotification {
  /** The idempotency key: the same for every delivery attempt of this event, unique per event. */
  id: string;
  kind: NotificationKind;
  session: string;
  /** The session's status when it was sent. */
  status: string;
  /** One line for a person. */
  message: string;
  /** When the event happened (workflow time, ISO 8601). */
  at: string;
  /** needs_approval: the command that approves the call, and the one that denies it. budget_exceeded: the raise, and the end. */
  command?: string;
  denyCommand?: string;
  toolName?: string;
  toolUseId?: string;
  turn?: number;
  /** completed / failed: why the session ended (our end reason, at most 300 characters). */
  endReason?: string;
  /** waiting_for_model: the outage (no request or response content). */
  outage?: { what: string; kind: string; since: string; attempts: number };
}

/** What a notification is about, before the body is built. */
export type NotificationEvent =
  | { kind: 'needs_approval'; toolUseId: string; toolName: string; turn: number }
  | { kind: 'completed' | 'failed'; status: string; endReason: string }
  | { kind: 'budget_exceeded'; key: string }
  | {
      kind: 'waiting_for_model';
      outage: { what: string; kind: string; since: number; attempts: number; nextTryAt: number };
    };

/** The kind a session status starts (undefined: none). Terminal ones and the budget's waiting state. */
export function statusNotificationKind(status: string): NotificationKind | undefined {
  return STATUS_KINDS[status];
}
const STATUS_KINDS: Readonly<Record<string, NotificationKind>> = {
  completed: 'completed',
  stopped: 'completed',
  max_turns: 'completed',
  max_tokens: 'completed',
  refused: 'failed',
  failed: 'failed',
  budget_exceeded: 'budget_exceeded',
};

/** Whether this session notifies of `kind` at all (a webhook or a Notification hook, and the kind not filtered out). */
export function notifiesOf(settings: NotifySettings | undefined, kind: NotificationKind): boolean {
  return !settings?.events || settings.events.includes(kind);
}

/** An outage long enough to say so: the next attempt starts more than the threshold after the first failure. */
export function outageIsLong(
  outage: { since: number; nextTryAt: number },
  settings: NotifySettings | undefined,
): boolean {
  return outage.nextTryAt - outage.since > (settings?.waitingForModelAfterMs ?? DEFAULT_WAITING_FOR_MODEL_AFTER_MS);
}

/** The event's key within its session: the idempotency key's tail, the same on replay and on retry. */
export function notificationEventKey(e: NotificationEvent): string {
  switch (e.kind) {
    case 'needs_approval':
      return e.toolUseId;
    case 'completed':
    case 'failed':
      return 'end';
    case 'budget_exceeded':
      return e.key;
    case 'waiting_for_model':
      return `outage-${e.outage.since}`;
  }
}

/** A word the shell passes as it is; anything else single-quoted. */
export function shellWord(s: string): string {
  return /^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The commands that answer an approval, as the CLI spells them. */
export function approvalCommands(sessionId: string, toolUseId: string): { approve: string; deny: string } {
  const args = `${shellWord(sessionId)} ${shellWord(toolUseId)}`;
  return { approve: `durable-agent approve ${args}`, deny: `durable-agent deny ${args} --reason '<why>'` };
}

/**
 * The notification of one event. `run` names the session: its id and the run id of its first run
 * (the same across continue-as-new, new when the id is reused), so the key is unique per event.
 */
export function sessionNotification(
  run: { sessionId: string; firstRunId: string; status: string; now: number },
  e: NotificationEvent,
): SessionNotification {
  const base = {
    id: `durable-agent:${run.sessionId}:${run.firstRunId}:${e.kind}:${notificationEventKey(e)}`,
    kind: e.kind,
    session: run.sessionId,
    status: run.status,
    at: new Date(run.now).toISOString(),
  };
  const s = run.sessionId;
  switch (e.kind) {
    case 'needs_approval': {
      const c = approvalCommands(s, e.toolUseId);
      return {
        ...base,
        message: `Session ${s} waits for approval of ${e.toolName} (${e.toolUseId}). Approve: ${c.approve} — or deny: ${c.deny}`,
        command: c.approve,
        denyCommand: c.deny,
        toolName: e.toolName,
        toolUseId: e.toolUseId,
        turn: e.turn,
      };
    }
    case 'completed':
    case 'failed': {
      const endReason = e.endReason.length > 300 ? `${e.endReason.slice(0, 299)}…` : e.endReason;
      const verb = e.kind === 'failed' ? 'failed' : `ended (${e.status})`;
      return { ...base, status: e.status, message: `Session ${s} ${verb}: ${endReason}`, endReason };
    }
    case 'budget_exceeded': {
      const raise = `durable-agent budget ${shellWord(s)} --add <usd>`;
      const end = `durable-agent budget ${shellWord(s)} --on-budget end`;
      return {
        ...base,
        message: `Session ${s} is over its budget and waits for a person to raise it: ${raise} — or end it: ${end}`,
        command: raise,
        denyCommand: end,
      };
    }
    case 'waiting_for_model': {
      const o = e.outage;
      const minutes = Math.max(1, Math.round((o.nextTryAt - o.since) / 60_000));
      return {
        ...base,
        message: `Session ${s} has been waiting for the ${o.what} for about ${minutes} min (${o.kind}, ${o.attempts} attempts); it keeps retrying`,
        outage: { what: o.what, kind: o.kind, since: new Date(o.since).toISOString(), attempts: o.attempts },
      };
    }
  }
}

/**
 * The reference's Notification hook fields for a kind (its input: message, title?, notification_type).
 * needs_approval is the reference's `permission_prompt`, which the approval itself fires
 * (core/schedulerShared.ts notifyApprovalPending): undefined here. completed and failed are the
 * reference's `agent_completed`; budget_exceeded and waiting_for_model have no reference type and
 * carry their own kind's name.
 */
export function notificationHookFields(n: SessionNotification): Record<string, unknown> | undefined {
  if (n.kind === 'needs_approval') return undefined;
  const type = n.kind === 'completed' || n.kind === 'failed' ? 'agent_completed' : n.kind;
  return { message: n.message, title: 'durable-agent', notification_type: type };
}

/** Problems with a session's `notify` settings (the edge checks them: src/sessionInput.ts). */
export function notifySettingsProblems(v: unknown): string[] {
  if (v === undefined) return [];
  if (!v || typeof v !== 'object' || Array.isArray(v)) return ['notify must be an object'];
  const n = v as Record<string, unknown>;
  const problems: string[] = [];
  for (const k of Object.keys(n))
    if (!['webhook', 'events', 'waitingForModelAfterMs'].includes(k))
      problems.push(`notify.${k} is not a notification setting (webhook, events, waitingForModelAfterMs)`);
  if (n.webhook !== undefined) {
    let url: URL | undefined;
    try {
      url = typeof n.webhook === 'string' ? new URL(n.webhook) : undefined;
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      problems.push('notify.webhook must be an http:// or https:// URL');
    else if (url.username || url.password)
      problems.push(
        'notify.webhook must not carry credentials (the URL is in the history): give the worker DURABLE_AGENT_NOTIFY_AUTH_HEADER or DURABLE_AGENT_NOTIFY_AUTH_HEADER_FILE',
      );
  }
  const kinds: readonly string[] = NOTIFICATION_KINDS;
  if (n.events !== undefined && (!Array.isArray(n.events) || n.events.some((e) => !kinds.includes(e as string))))
    problems.push(`notify.events must be a list of ${NOTIFICATION_KINDS.join(', ')}`);
  const after = n.waitingForModelAfterMs;
  if (after !== undefined && (typeof after !== 'number' || !(after >= 0)))
    problems.push('notify.waitingForModelAfterMs must be a number of milliseconds (0 or more)');
  return problems;
}
