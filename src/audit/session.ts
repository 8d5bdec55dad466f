// Rebuilds a session's audit trail from Temporal alone: every continue-as-new run of the session
// workflow and every turn child workflow `<session-id>/turn-<n>`. No local store is read: what a
// call did is in its activity's input and result payloads, who decided is in the records and the
// turnApproval signals, when and how often is in the event times and attempts. Payloads are
// decoded with the client's data converter; what cannot be read is reported as a gap.
import { sumModelUsage, totalCostUsd, type ModelUsage } from '../core/modelUsage';
import type { Client } from '@temporalio/client';
import { SessionNotFoundError } from '../temporal/client';
import { addUsage } from '../core/contextWindow';
import { activityIds, SIGNALS, turnOfWorkflowId } from '../core/ids';
import type { Usage } from '../core/apiMessages';
import type { SessionInput, SessionResult } from '../temporal/workflows/definitions';
import { isWorkflowNotFound } from '../temporal/service/errors';
import {
  converterOf,
  describeRaw,
  ET,
  failureText,
  fetchEvents,
  HistoryDecoder,
  iso,
  mapLimit,
  msOf,
  trackActivities,
  type HistoryEvent,
} from './history';
import { sessionHookEntries } from './sessionHooks';
import { taskEntries } from './tasks';
import { auditTurn, type TurnAuditOptions, type TurnRef } from './turn';
import type {
  AuditCompaction,
  AuditGap,
  AuditModelCall,
  AuditReport,
  AuditSession,
  AuditTask,
  AuditToolCall,
} from './types';

export interface BuildAuditOptions extends TurnAuditOptions {
  /** Audit the chain that ends with this run (default: the workflow id's latest run). */
  runId?: string;
  /** How many turn histories to fetch at once. Default 6. */
  concurrency?: number;
  /** Audit the subagents' child sessions too (`subagents`). Default true. */
  subagents?: boolean;
}

interface RunInfo {
  runId: string;
  events: HistoryEvent[];
}

/** The runs of the session, oldest first: from the latest (or given) run back along continuedExecutionRunId. */
async function sessionRuns(
  client: Client,
  sessionId: string,
  runId: string | undefined,
  gaps: AuditGap[],
): Promise<RunInfo[]> {
  let current: string;
  try {
    current = runId ?? (await describeRaw(client, sessionId)).workflowExecutionInfo?.execution?.runId ?? '';
  } catch (err) {
    if (isWorkflowNotFound(err)) throw new SessionNotFoundError(sessionId);
    throw err;
  }
  const runs: RunInfo[] = [];
  const seen = new Set<string>();
  while (current && !seen.has(current)) {
    seen.add(current);
    const events = await fetchEvents(
      client,
      { workflowId: sessionId, runId: current },
      'this run of the session and every run before it (their turns, messages and interrupts)',
    );
    if (!Array.isArray(events)) {
      // The latest run is the session: without it there is no audit. An older run is a gap.
      if (runs.length === 0)
        throw new Error(`cannot read the history of session ${sessionId} (run ${current}): ${events.error}`);
      gaps.push(events);
      break;
    }
    runs.unshift({ runId: current, events });
    const first = events[0];
    current =
      first?.eventType === ET.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED
        ? (first.workflowExecutionStartedEventAttributes?.continuedExecutionRunId ?? '')
        : '';
  }
  return runs;
}

interface SessionEvents {
  turnRefs: TurnRef[];
  input?: SessionInput;
  sandboxLine?: string;
  startedAt?: number;
  endedAt?: number;
  closeStatus?: string;
  endReason?: string;
  /** The session result's usage by model (the whole tree's). */
  modelUsage?: ModelUsage;
  messages: AuditSession['messages'];
  interrupts: AuditSession['interrupts'];
}

/** What the session's own histories say: its input, turns, messages, interrupts and how it closed. */
async function readSessionRuns(
  client: Client,
  sessionId: string,
  runs: RunInfo[],
  gaps: AuditGap[],
): Promise<SessionEvents> {
  const out: SessionEvents = { turnRefs: [], messages: [], interrupts: [] };
  const converter = converterOf(client);
  for (const [runIndex, run] of runs.entries()) {
    const decoder = new HistoryDecoder(converter, { workflowId: sessionId, runId: run.runId }, gaps);
    const initiated = new Map<string, TurnRef>();
    for (const e of run.events) {
      const at = msOf(e.eventTime);
      switch (e.eventType) {
        case ET.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
          if (runIndex === 0) {
            const a = e.workflowExecutionStartedEventAttributes;
            const input = await decoder.at<SessionInput>(a?.input, e, 'session input');
            const sandboxLine = await decoder.one<string>(a?.memo?.fields?.sandbox, e, 'memo sandbox');
            if (input) out.input = input;
            if (sandboxLine !== undefined) out.sandboxLine = sandboxLine;
            if (at !== undefined) out.startedAt = at;
          }
          break;
        case ET.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED: {
          const workflowId = e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId ?? '';
          const turn = turnOfWorkflowId(sessionId, workflowId);
          if (turn === undefined) break;
          const ref: TurnRef = { turn, run: runIndex, workflowId };
          initiated.set(String(e.eventId), ref);
          out.turnRefs.push(ref);
          break;
        }
        case ET.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED: {
          const a = e.childWorkflowExecutionStartedEventAttributes;
          const ref = initiated.get(String(a?.initiatedEventId));
          if (ref && a?.workflowExecution?.runId) ref.runId = a.workflowExecution.runId;
          break;
        }
        case ET.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_FAILED: {
          const ref = initiated.get(String(e.startChildWorkflowExecutionFailedEventAttributes?.initiatedEventId));
          if (ref) out.turnRefs.splice(out.turnRefs.indexOf(ref), 1);
          break;
        }
        case ET.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED: {
          const s = e.workflowExecutionSignaledEventAttributes;
          if (s?.signalName === SIGNALS.sendMessage) {
            const m = await decoder.at<{ text: string }>(s.input, e, 'sendMessage signal');
            if (m && typeof m.text === 'string')
              out.messages.push({ ...(at !== undefined ? { at: iso(at) } : {}), text: m.text });
          } else if (s?.signalName === SIGNALS.interrupt) {
            const i = (await decoder.at<{ by?: string; reason?: string }>(s.input, e, 'interrupt signal')) ?? {};
            out.interrupts.push({
              ...(at !== undefined ? { at: iso(at) } : {}),
              ...(i.by ? { by: i.by } : {}),
              ...(i.reason ? { reason: i.reason } : {}),
            });
          }
          break;
        }
        case ET.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED: {
          const r = await decoder.at<SessionResult>(
            e.workflowExecutionCompletedEventAttributes?.result,
            e,
            'session result',
          );
          out.closeStatus = r?.status ?? 'completed';
          if (r?.endReason) out.endReason = r.endReason;
          if (r?.modelUsage) out.modelUsage = r.modelUsage;
          if (at !== undefined) out.endedAt = at;
          break;
        }
        case ET.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED: {
          out.closeStatus = 'failed';
          const reason = failureText(e.workflowExecutionFailedEventAttributes?.failure);
          if (reason) out.endReason = reason;
          if (at !== undefined) out.endedAt = at;
          break;
        }
        case ET.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED:
        case ET.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT:
          out.closeStatus = e.eventType === ET.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED ? 'cancelled' : 'timed_out';
          if (at !== undefined) out.endedAt = at;
          break;
        case ET.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED: {
          out.closeStatus = 'terminated';
          const reason = e.workflowExecutionTerminatedEventAttributes?.reason;
          if (reason) out.endReason = reason;
          if (at !== undefined) out.endedAt = at;
          break;
        }
        default:
          break;
      }
    }
  }
  return out;
}

/** Subagents: each Agent call's child session, audited the same way (the tree: session → agent → …). */
async function auditSubagents(
  client: Client,
  toolCalls: AuditToolCall[],
  opts: BuildAuditOptions,
  gaps: AuditGap[],
): Promise<AuditReport[]> {
  const subagents: AuditReport[] = [];
  const { runId: _parentRun, ...childOpts } = opts;
  for (const c of toolCalls) {
    if (!c.subagent) continue;
    try {
      subagents.push(await buildAudit(client, c.subagent, childOpts));
    } catch (err) {
      // A child that never started (denied, interrupted before it ran) is no gap: the call's own entry says so.
      const neverStarted =
        err instanceof SessionNotFoundError &&
        c.status !== 'ok' &&
        !c.activities.some((a) => a.activityId === activityIds.agentPost(c.toolUseId));
      if (!neverStarted)
        gaps.push({
          kind: 'gap',
          what: 'history',
          workflowId: c.subagent,
          turn: c.turn,
          error: err instanceof Error ? err.message : String(err),
          missing: `the subagent session of ${c.toolUseId} (its model and tool calls)`,
        });
    }
  }
  return subagents;
}

/** Rebuilds the audit trail of a session from its Temporal histories alone. */
export async function buildAudit(
  client: Client,
  sessionId: string,
  opts: BuildAuditOptions = {},
): Promise<AuditReport> {
  const gaps: AuditGap[] = [];
  const runs = await sessionRuns(client, sessionId, opts.runId, gaps);
  const s = await readSessionRuns(client, sessionId, runs, gaps);
  const converter = converterOf(client);
  // The session's own activities, every run: hook firings (`hook-<event>-<n>`) and background tasks (`task-<id>`).
  const sessionActivities = await Promise.all(
    runs.map((run) =>
      trackActivities(run.events, new HistoryDecoder(converter, { workflowId: sessionId, runId: run.runId }, gaps)),
    ),
  );
  const sessionHooks = sessionActivities.flatMap((acts, i) => sessionHookEntries(acts, i));
  // A child of several model steps (issue 33) gives one entry per step, as a child per step did.
  const children = await mapLimit(s.turnRefs, opts.concurrency ?? 6, (ref) =>
    auditTurn(client, converter, ref, opts, gaps),
  );
  const turns = children.flatMap((c) => c ?? [undefined]);
  const modelCalls: AuditModelCall[] = [];
  const toolCalls: AuditToolCall[] = [];
  const compactions: AuditCompaction[] = [];
  let usage: Usage = { input_tokens: 0, output_tokens: 0 };
  for (const t of turns) {
    if (!t) continue;
    if (t.model) modelCalls.push(t.model);
    toolCalls.push(...t.tools);
    compactions.push(...t.compactions);
    usage = addUsage(usage, t.usage);
  }
  const spent = s.modelUsage ?? sumModelUsage([...modelCalls, ...compactions, ...toolCalls].map((c) => c.modelUsage));
  const tasks: AuditTask[] = sessionActivities.flatMap((acts, i) => taskEntries(acts, i, toolCalls));

  let status = s.closeStatus;
  if (!status) {
    const lastTurn = [...turns].reverse().find((t) => t !== undefined);
    if (toolCalls.some((c) => c.status === 'awaiting_approval')) status = 'awaiting_approval';
    else if (lastTurn && !lastTurn.open && lastTurn.reason === 'interrupted') status = 'interrupted';
    else status = 'running';
  }

  const subagents = opts.subagents !== false ? await auditSubagents(client, toolCalls, opts, gaps) : [];

  // Turns are read concurrently: report the gaps in history order (the session's first, then by turn and event).
  gaps.sort((a, b) => (a.turn ?? -1) - (b.turn ?? -1) || (a.eventId ?? 0) - (b.eventId ?? 0));
  const input = s.input;
  const session: AuditSession = {
    kind: 'session',
    sessionId,
    prompt: input?.prompt ?? '',
    ...(input?.model?.model ? { model: input.model.model } : {}),
    ...(input?.cwd ? { cwd: input.cwd } : {}),
    ...(input?.permissionMode ? { permissionMode: input.permissionMode } : {}),
    ...(typeof s.sandboxLine === 'string' ? { sandbox: s.sandboxLine } : {}),
    ...(input?.sandbox ? { sandboxSettings: input.sandbox } : {}),
    ...(input?.settingsSources ? { settingsSources: input.settingsSources } : {}),
    ...(input?.memory ? { memory: { files: input.memory.files, sha256: input.memory.sha256 } } : {}),
    status,
    ...(s.endReason ? { endReason: s.endReason } : {}),
    runs: runs.length,
    runIds: runs.map((r) => r.runId),
    turns: turns.length,
    ...(s.startedAt !== undefined ? { startedAt: iso(s.startedAt) } : {}),
    ...(s.endedAt !== undefined ? { endedAt: iso(s.endedAt) } : {}),
    usage,
    ...(compactions.length ? { compactions: compactions.length } : {}),
    modelUsage: spent,
    costUSD: totalCostUsd(spent),
    toolCalls: toolCalls.length,
    modelCalls: modelCalls.length,
    ...(tasks.length ? { tasks: tasks.length } : {}),
    messages: s.messages,
    interrupts: s.interrupts,
    ...(gaps.length ? { gaps: gaps.length } : {}),
  };
  return {
    session,
    ...(gaps.length ? { gaps } : {}),
    modelCalls,
    toolCalls,
    ...(compactions.length ? { compactions } : {}),
    ...(sessionHooks.length ? { sessionHooks } : {}),
    ...(tasks.length ? { tasks } : {}),
    ...(subagents.length ? { subagents } : {}),
  };
}
