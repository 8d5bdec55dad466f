// The fault suite's invariants, as pure functions over a session's final transcript and the side
// effects its tools left behind (ledger lines per tool_use_id):
//   - protocol completeness: every tool_use answered by exactly one tool_result, in the next message;
//   - no completed call's effect appears twice; no completed call's effect is missing;
//   - a call lost while running is reported unknown_outcome (not idempotent) or re-run (idempotent);
//   - no effect without a call in the transcript.
import type { Message, ToolResultBlockParam, ToolUseBlock } from '../../src/core/apiMessages';
import { IDEMPOTENT, effectKindOf, type EffectKind } from './plan';

export type CallStatus = 'ok' | 'unknown_outcome' | 'error';

export interface CallCheck {
  id: string;
  kind: EffectKind;
  status: CallStatus;
  /** How many times its side effect happened. */
  effects: number;
  text: string;
}

export interface SessionCheck {
  calls: CallCheck[];
  /** Calls that completed (status ok). */
  completed: number;
  /** Extra effects of completed non-idempotent calls, and of unknown-outcome calls that ran again. Must be 0. */
  duplicated: number;
  unknownOutcomes: number;
  /** Extra runs of idempotent calls (allowed: they were re-run after a lost worker). */
  idempotentReruns: number;
  /** Error results that name the fault and had no effect (only with `clearFailure`). */
  failedClearly: number;
  /** Everything that breaks an invariant, one line each. */
  violations: string[];
}

function resultText(r: ToolResultBlockParam): string {
  return typeof r.content === 'string' ? r.content : r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

export const UNKNOWN_OUTCOME = /The outcome of this \w+ call is unknown/;

/** Protocol completeness: one problem line per tool_use without exactly one answer in the next message. */
export function protocolProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  messages.forEach((m, i) => {
    if (m.role !== 'assistant' || typeof m.content === 'string') return;
    const uses = m.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    if (uses.length === 0) return;
    const next = messages[i + 1];
    const results =
      next && next.role === 'user' && typeof next.content !== 'string'
        ? next.content.filter((b): b is ToolResultBlockParam => b.type === 'tool_result')
        : [];
    for (const u of uses) {
      const n = results.filter((r) => r.tool_use_id === u.id).length;
      if (n !== 1) problems.push(`tool_use ${u.id} (${u.name}) has ${n} tool_result(s) in the next message`);
    }
    for (const r of results)
      if (!uses.some((u) => u.id === r.tool_use_id))
        problems.push(`tool_result ${r.tool_use_id} answers no tool_use of the message before it`);
  });
  return problems;
}

/** Every tool_use of the transcript with its result (the result in the message after it). */
export function callsOf(
  messages: readonly Message[],
): Array<{ use: ToolUseBlock; result: ToolResultBlockParam | undefined }> {
  const out: Array<{ use: ToolUseBlock; result: ToolResultBlockParam | undefined }> = [];
  messages.forEach((m, i) => {
    if (m.role !== 'assistant' || typeof m.content === 'string') return;
    const next = messages[i + 1];
    const results =
      next && next.role === 'user' && typeof next.content !== 'string'
        ? next.content.filter((b): b is ToolResultBlockParam => b.type === 'tool_result')
        : [];
    for (const b of m.content)
      if (b.type === 'tool_use') out.push({ use: b, result: results.find((r) => r.tool_use_id === b.id) });
  });
  return out;
}

/**
 * Checks one session. `effects(kind, id)` counts the side effects of a call (ledger lines equal to
 * the id; 1 or 0 for a Write's file); `allEffectIds` lists every id any ledger holds (orphans).
 */
export function checkSession(
  messages: readonly Message[],
  effects: (kind: EffectKind, id: string) => number,
  allEffectIds: readonly string[] = [],
  /** An error result matching this (a store fault named) is a clear failure, when the call had no effect. */
  clearFailure?: RegExp,
): SessionCheck {
  const check: SessionCheck = {
    calls: [],
    completed: 0,
    duplicated: 0,
    unknownOutcomes: 0,
    idempotentReruns: 0,
    failedClearly: 0,
    violations: protocolProblems(messages),
  };
  const seen = new Set<string>();
  for (const { use, result } of callsOf(messages)) {
    seen.add(use.id);
    const kind = effectKindOf(use);
    if (!kind || !result) continue;
    const text = resultText(result);
    const status: CallStatus = !result.is_error ? 'ok' : UNKNOWN_OUTCOME.test(text) ? 'unknown_outcome' : 'error';
    const n = effects(kind, use.id);
    check.calls.push({ id: use.id, kind, status, effects: n, text: text.slice(0, 300) });
    const idempotent = IDEMPOTENT[kind];
    if (status === 'ok') {
      check.completed++;
      if (n === 0) check.violations.push(`${use.id} (${kind}) completed but its effect is missing`);
      if (idempotent) check.idempotentReruns += Math.max(0, n - 1);
      else if (n > 1) {
        check.duplicated += n - 1;
        check.violations.push(`${use.id} (${kind}) completed and its effect appears ${n} times`);
      }
    } else if (status === 'unknown_outcome') {
      check.unknownOutcomes++;
      if (idempotent)
        check.violations.push(`${use.id} (${kind}) is idempotent but was reported unknown_outcome instead of re-run`);
      if (n > 1) {
        check.duplicated += n - 1;
        check.violations.push(`${use.id} (${kind}) was reported unknown_outcome but ran ${n} times`);
      }
    } else if (clearFailure?.test(text) && n === 0) {
      check.failedClearly++;
    } else {
      check.violations.push(
        `${use.id} (${kind}) failed${n > 0 ? ` (its effect happened ${n} time(s))` : ''}: ${text.slice(0, 200)}`,
      );
    }
  }
  for (const id of allEffectIds)
    if (!seen.has(id))
      check.violations.push(`an effect of ${id} is in a ledger, but no tool_use ${id} is in the transcript`);
  return check;
}

/** Ledger lines → count per id. */
export function countLines(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    const l = line.trim();
    if (l) counts.set(l, (counts.get(l) ?? 0) + 1);
  }
  return counts;
}
