// A turn's model step with context management, written once for both schedulers: call the model;
// if the call says the window is nearly full (auto) or the API refused the prompt as too long
// (reactive), compact — a summarizing model call of its own — and call again. A session never
// fails of its own length: only when compaction cannot make the prompt fit does the step fail.
// Pure: the executor does the I/O (activities under Temporal, direct calls in-process).
import { DurableAgentError } from './errors';
import type { CompactionRecord, ContextView } from './contextView';

export type CompactTrigger = 'auto' | 'reactive';

export type ModelAttempt<R> =
  | { kind: 'message'; result: R; view: ContextView }
  /** No answer: compact first. `view` may already hold newly cleared tool results. */
  | { kind: 'compact'; trigger: CompactTrigger; tokens: number; view: ContextView }
  | { kind: 'interrupted' };

export type CompactOutcome =
  | { kind: 'compacted'; view: ContextView; record: CompactionRecord }
  /** A PreCompact hook blocked an automatic compaction: the call goes ahead without it. */
  | { kind: 'blocked'; reason: string }
  | { kind: 'interrupted' };

export interface ModelStepExecutor<R> {
  /** `autoCompact: false` after a hook blocked it: send the request even above the threshold. */
  callModel(view: ContextView, attempt: number, opts: { autoCompact: boolean }): Promise<ModelAttempt<R>>;
  /** `n` is the session's compaction number; `attempt` > 0 means an earlier one this step did not suffice. */
  compact(
    view: ContextView,
    trigger: CompactTrigger,
    n: number,
    attempt: number,
    tokens: number,
  ): Promise<CompactOutcome>;
}

export const MAX_COMPACTIONS_PER_STEP = 3;

export class ContextOverflowError extends DurableAgentError {
  constructor(message: string) {
    super('CONTEXT_OVERFLOW', message);
  }
}

export type ModelStepResult<R> =
  | { kind: 'message'; result: R; view: ContextView; compactions: CompactionRecord[]; notices: string[] }
  | { kind: 'interrupted'; view: ContextView; compactions: CompactionRecord[]; notices: string[] };

/** A hook may hold back an automatic compaction, never one the API forced (the session must go on). */
export function hookMayBlock(trigger: CompactTrigger): boolean {
  return trigger === 'auto';
}

export async function runModelStep<R>(
  exec: ModelStepExecutor<R>,
  start: ContextView,
  maxCompactions = MAX_COMPACTIONS_PER_STEP,
): Promise<ModelStepResult<R>> {
  let view = start;
  let autoCompact = true;
  const compactions: CompactionRecord[] = [];
  const notices: string[] = [];
  for (let attempt = 0; ; attempt++) {
    const r = await exec.callModel(view, attempt, { autoCompact });
    if (r.kind === 'interrupted') return { kind: 'interrupted', view, compactions, notices };
    if (r.kind === 'message') return { kind: 'message', result: r.result, view: r.view, compactions, notices };
    view = r.view;
    if (compactions.length >= maxCompactions) {
      throw new ContextOverflowError(
        `the prompt is still too long for the model's window after ${compactions.length} compaction(s) (${r.tokens} tokens)`,
      );
    }
    const c = await exec.compact(view, r.trigger, view.compactions + 1, compactions.length, r.tokens);
    if (c.kind === 'interrupted') return { kind: 'interrupted', view, compactions, notices };
    if (c.kind === 'blocked') {
      notices.push(`PreCompact hook blocked auto-compaction: ${c.reason}`);
      autoCompact = false;
      continue;
    }
    view = c.view;
    compactions.push(c.record);
  }
}
