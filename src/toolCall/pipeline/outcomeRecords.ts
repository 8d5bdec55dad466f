// What a pipeline outcome becomes as data: the engine's ToolCallRecord (the unit of the turn's
// result, the execution ledger and the audit) and the DecisionRecord of a permission decision.
// Pure mapping: both schedulers and the audit use it.
import { errorResult, type DecisionRecord, type ToolCallRecord } from '../../core/toolRecords';
import type { DecisionReason } from '../../toolProtocol/Tool';
import type { HookRun } from '../../hooks/types';
import type { ToolPermissionContext } from '../../toolProtocol/permissionTypes';
import type { ApprovalResolution, ToolUseOutcome } from './types';

export function decisionFromReason(
  behavior: 'allow' | 'ask' | 'deny',
  reason: DecisionReason | undefined,
  message?: string,
): DecisionRecord {
  if (!reason) return { behavior, source: 'other', ...(message ? { reason: message } : {}) };
  switch (reason.type) {
    case 'rule':
      return { behavior, source: 'rule', detail: reason.rule };
    case 'mode':
      return { behavior, source: 'mode', detail: reason.mode };
    case 'hook':
      return { behavior, source: 'hook', detail: reason.hook, ...(reason.reason ? { reason: reason.reason } : {}) };
    case 'tool':
      return { behavior, source: 'tool', reason: reason.reason };
    case 'workingDirectory':
      return { behavior, source: 'workingDirectory', detail: reason.path };
    case 'human':
      return {
        behavior,
        source: 'human',
        ...(reason.by ? { by: reason.by } : {}),
        ...(reason.reason ? { reason: reason.reason } : {}),
      };
    case 'timeout':
      return { behavior, source: 'timeout', detail: `${reason.afterMs}ms` };
    case 'sandbox':
      return { behavior, source: 'sandbox', reason: reason.reason };
    case 'safetyCheck':
      return { behavior, source: 'safetyCheck', detail: reason.path, reason: reason.reason };
    default:
      return { behavior, source: 'other', reason: reason.reason };
  }
}

export function recordFromOutcome(outcome: ToolUseOutcome, summary: string): ToolCallRecord {
  const status = outcome.status === 'ask' || outcome.status === 'ready' ? 'error' : outcome.status;
  return {
    toolUseId: outcome.toolUseId,
    toolName: outcome.toolName,
    input: outcome.input,
    summary,
    status,
    result: outcome.result ?? errorResult(outcome.toolUseId, 'No result was produced.'),
    contextModifiers: outcome.contextModifiers,
    ...(outcome.newMessages.length > 0 ? { newMessages: outcome.newMessages } : {}),
    ...(outcome.hookNotices.length > 0
      ? { notices: outcome.hookNotices.map((n) => (n.length > 500 ? `${n.slice(0, 499)}…` : n)) }
      : {}),
    ...(outcome.permission
      ? {
          decision: decisionFromReason(
            outcome.permission.behavior,
            outcome.permission.decisionReason,
            outcome.permission.message,
          ),
        }
      : {}),
    startedAt: outcome.startedAt,
    endedAt: outcome.endedAt,
    ...(outcome.persistedTo ? { persistedTo: outcome.persistedTo } : {}),
    ...(outcome.stop ? { stop: outcome.stop } : {}),
    ...(outcome.sandbox ? { sandbox: outcome.sandbox } : {}),
    ...(outcome.network ? { network: outcome.network } : {}),
    ...(outcome.hookRuns && outcome.hookRuns.length > 0
      ? {
          hooks: outcome.hookRuns.map((h) => {
            const reason =
              h.output?.hookSpecificOutput && 'permissionDecisionReason' in h.output.hookSpecificOutput
                ? h.output.hookSpecificOutput.permissionDecisionReason
                : h.outcome === 'blocking'
                  ? h.stderr?.trim()
                  : undefined;
            return {
              event: h.event,
              hook: h.hook.slice(0, 200),
              outcome: h.outcome,
              ...(h.exitCode !== undefined ? { exitCode: h.exitCode } : {}),
              durationMs: h.durationMs,
              ...(typeof reason === 'string' && reason ? { reason: reason.slice(0, 300) } : {}),
              ...(h.sandbox
                ? {
                    sandbox: {
                      sandboxed: h.sandbox.sandboxed,
                      reason: h.sandbox.reason.slice(0, 300),
                      ...(h.sandbox.violations ? { violations: h.sandbox.violations.slice(0, 20) } : {}),
                    },
                  }
                : {}),
            };
          }),
        }
      : {}),
  };
}

/** A hook run as the record keeps it: stdout and stderr cut to 2,000 characters. */
export function trimRun(r: HookRun): HookRun {
  const cut = (s?: string) => (s !== undefined && s.length > 2000 ? `${s.slice(0, 2000)}… [truncated]` : s);
  const out: HookRun = { ...r };
  if (r.stdout !== undefined) out.stdout = cut(r.stdout)!;
  if (r.stderr !== undefined) out.stderr = cut(r.stderr)!;
  return out;
}

/** Why an approved or denied `ask` was decided: a human, the timeout, the mode, or no approver. */
export function humanReason(a: ApprovalResolution, mode: ToolPermissionContext['mode']): DecisionReason {
  if (a.source === 'timeout') return { type: 'timeout', afterMs: a.afterMs ?? 0 };
  if (a.source === 'mode') return { type: 'mode', mode };
  if (a.source === 'unattended') return { type: 'other', reason: a.reason ?? 'no approver is attached' };
  const r: DecisionReason = { type: 'human', decision: a.decision };
  if (a.by !== undefined) r.by = a.by;
  if (a.reason !== undefined) r.reason = a.reason;
  return r;
}
