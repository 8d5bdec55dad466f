// The end of a turn (turn.ts): its tool results and read files written to the store (by reference,
// at once, as one local activity under TURN_END_ONE_WRITE_PATCH, two under LOCAL_TURN_STORES_PATCH), what it tells its session, and how a
// failed activity reads (a transient outage, a failed tool call).
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  TimeoutFailure,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
} from '@temporalio/workflow';
import type { ToolUseBlock } from '../../core/apiMessages';
import { assistantText, toolResultText } from '../../core/apiMessages';
import { syntheticRecord, type ToolCallRecord } from '../../core/toolRecords';
import type { TransientFailure } from '../../core/retry';
import { transientFailureFromDetails } from '../../core/schedulerShared';
import type { ToolUseDescription, TurnOutcome } from '../../core/turn';
import type { CallModelResult } from '../../runtime/model';
import { turnModelUsage, withModelUsage } from '../../core/modelUsage';
import type { ToolResultsByRef } from '../../core/payloads';
import type { StoreActivities, TurnEndActivities } from '../activities';
import type { ManagedModelStep } from './modelStep';
import { activityIds } from '../../core/ids';
import {
  LOCAL_TURN_STORES_PATCH,
  TURN_END_ONE_WRITE_PATCH,
  oneLinePreview,
  type CompactRecord,
  type TurnStepWrites,
  type TurnWorkflowInput,
  type TurnWorkflowResult,
} from './definitions';

// Store activities (transcript, read files) retry a few times quickly on the server; past that
// the turn waits visibly too.
const store = proxyActivities<StoreActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 3 },
});

// The same writes as local activities (LOCAL_TURN_STORES_PATCH): content-addressed and
// idempotent, so running them again (a replay elsewhere) is right. One local attempt: a failure
// falls back to the activities above, whose retries and outage waiting are visible.
const localStore = proxyLocalActivities<StoreActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 1 },
});

// The same two writes as ONE local activity (TURN_END_ONE_WRITE_PATCH), one attempt as above.
const localTurnEnd = proxyLocalActivities<TurnEndActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 1 },
});

/** A retryable activity failure as the outage handling reads it; undefined when it is permanent. */
export function transientFailureOf(err: unknown, what: 'model' | 'store'): TransientFailure | undefined {
  if (!(err instanceof ActivityFailure)) return undefined;
  const cause = err.cause;
  if (cause instanceof TimeoutFailure)
    return {
      kind: 'timeout',
      message: `${what} activity timed out (${cause.timeoutType ?? 'timeout'}): the worker may be gone`,
    };
  if (cause instanceof ApplicationFailure)
    return cause.nonRetryable ? undefined : transientFailureFromDetails(what, cause.message, cause.details);
  return { kind: what === 'store' ? 'store' : 'other', message: cause?.message ?? err.message };
}

/**
 * A record as the turn's progress query and result show it. In the result (`forResult`) a stored
 * result's preview is left out: the tool activity's result in the turn's history holds the same
 * one-line preview (core/payloads.ts recordForHistory), which is where the audit reads it.
 */
export function compact(record: ToolCallRecord, forResult = false): CompactRecord {
  const content = toolResultText(record.result);
  // In the result, a stored result's record that the session has nothing to do with (no control
  // writes, stop or notices) is its id and status: the tool activity's result holds the rest (issue 33).
  const lean =
    forResult && record.resultRef && !record.controlWrites?.length && !record.stop && !record.notices?.length;
  return {
    toolUseId: record.toolUseId,
    ...(lean ? {} : { toolName: record.toolName, summary: record.summary }),
    status: record.status,
    // A stored result's record: its decision and preview are in the tool activity's result (issue 33).
    ...(record.decision && !(forResult && record.resultRef) ? { decision: record.decision } : {}),
    ...(forResult && record.resultRef ? {} : { preview: oneLinePreview(content) }),
    ...(record.reused ? { reused: true } : {}),
    ...(record.early ? { early: true } : {}),
    ...(record.stop ? { stop: record.stop } : {}),
    ...(record.notices?.length ? { notices: record.notices } : {}),
    ...(record.controlWrites?.length ? { controlWrites: record.controlWrites } : {}),
  };
}

/** A step's end-of-step writes: the tool results onto `sent`, the read-file entries over `base`. */
export interface EndWrites {
  sent: string | null;
  toolResults: ToolResultsByRef | undefined;
  base: string | null;
  delta: TurnOutcome['context']['readFiles'];
}

/**
 * What a step writes at its end. The previous step's writes (`input.carry`, TURN_STEP_WRITES_PATCH)
 * were made by this step's model call when it answered (its head follows them, its `readFilesRef`
 * is their result); a step without an answer makes them itself, and so does one whose model call
 * did not say what it stored (then the carried read files go with this step's).
 */
export function endWrites(
  input: TurnWorkflowInput,
  outcome: TurnOutcome,
  modelResult: CallModelResult | undefined,
): EndWrites {
  const carry = input.carry;
  // The tool results always enter the transcript, even when interrupted (invariant 1).
  const sent = modelResult?.head ?? input.head;
  const carried = carry?.append?.messages[0] as ToolResultsByRef | undefined;
  const toolResults = modelResult ? outcome.toolResults : carried;
  // The read-file state stays out of payloads too: store this step's entries, carry a reference.
  const delta = outcome.context.readFiles;
  if (modelResult?.readFilesRef !== undefined || !carry?.readFiles)
    return { sent, toolResults, base: modelResult?.readFilesRef ?? input.readFilesRef ?? null, delta };
  return { sent, toolResults, base: carry.readFiles.base, delta: { ...carry.readFiles.delta, ...delta } };
}

/** The writes as the next step's model call makes them (TURN_STEP_WRITES_PATCH). */
export function stepCarry(w: EndWrites): TurnStepWrites {
  return {
    ...(w.toolResults ? { append: { head: w.sent, messages: [w.toolResults] } } : {}),
    ...(Object.keys(w.delta).length > 0 ? { readFiles: { base: w.base, delta: w.delta } } : {}),
  };
}

/**
 * The end of a turn: its tool results into the transcript (always, even when interrupted:
 * invariant 1) and its read-file entries into the store; both by reference, written at once.
 */
export async function recordTurnEnd(
  input: TurnWorkflowInput,
  outcome: TurnOutcome,
  modelResult: CallModelResult | undefined,
  storeCall: <T>(call: (attempt: number) => Promise<T>) => Promise<T>,
): Promise<[string | null, string | null]> {
  return writeEnd(input.turn, endWrites(input, outcome, modelResult), outcome.records.length, storeCall);
}

/** A step's carried writes made by the turn itself (the step after it failed before its model call answered). */
export async function settleCarry(
  step: TurnWorkflowResult,
  storeCall: <T>(call: (attempt: number) => Promise<T>) => Promise<T>,
): Promise<TurnWorkflowResult> {
  const { carry, ...rest } = step;
  if (!carry) return step;
  const w: EndWrites = {
    sent: carry.append?.head ?? step.head,
    toolResults: carry.append?.messages[0] as ToolResultsByRef | undefined,
    base: carry.readFiles?.base ?? step.readFilesRef ?? null,
    delta: carry.readFiles?.delta ?? {},
  };
  const [head, readFilesRef] = await writeEnd(step.turn, w, step.records.length, storeCall);
  return { ...rest, head, ...(readFilesRef ? { readFilesRef } : {}) };
}

async function writeEnd(
  turn: number,
  { sent, toolResults, base, delta }: EndWrites,
  calls: number,
  storeCall: <T>(call: (attempt: number) => Promise<T>) => Promise<T>,
): Promise<[string | null, string | null]> {
  const writes = toolResults !== undefined || Object.keys(delta).length > 0;
  const one = writes && patched(TURN_END_ONE_WRITE_PATCH);
  if (one) {
    // Both writes in one local attempt; on failure, the activities below with their outage waiting.
    const done = await oneLocalWrite(sent, toolResults, base, delta, calls);
    if (done) return done;
  }
  const local = writes && !one && patched(LOCAL_TURN_STORES_PATCH);
  const appendSummary = `Record ${calls} tool result(s)`;
  const readFilesSummary = `Record ${Object.keys(delta).length} read file(s)`;
  /** The local attempt first (under the patch); on failure, or before the patch, the activities. */
  const write = async <T>(localCall: () => Promise<T>, remote: (attempt: number) => Promise<T>): Promise<T> => {
    if (local) {
      try {
        return await localCall();
      } catch (err) {
        if (isCancellation(err)) throw err;
      }
    }
    return storeCall(remote);
  };
  return CancellationScope.nonCancellable(() =>
    Promise.all([
      toolResults
        ? write(
            () =>
              localStore.appendTranscript.executeWithOptions({ summary: appendSummary }, [
                { head: sent, messages: [toolResults] },
              ]),
            (a) =>
              store.appendTranscript.executeWithOptions(
                { activityId: activityIds.attempt(activityIds.append(turn), a), summary: appendSummary },
                [{ head: sent, messages: [toolResults] }],
              ),
          )
        : sent,
      Object.keys(delta).length > 0
        ? write(
            () => localStore.storeReadFiles.executeWithOptions({ summary: readFilesSummary }, [{ base, delta }]),
            (a) =>
              store.storeReadFiles.executeWithOptions(
                { activityId: activityIds.attempt(activityIds.readFiles(turn), a), summary: readFilesSummary },
                [{ base, delta }],
              ),
          )
        : base,
    ]),
  );
}

/** The end-of-turn writes as one local activity (TURN_END_ONE_WRITE_PATCH); undefined when it failed. */
async function oneLocalWrite(
  sent: string | null,
  toolResults: TurnOutcome['toolResults'] | undefined,
  base: string | null,
  delta: TurnOutcome['context']['readFiles'],
  calls: number,
): Promise<[string | null, string | null] | undefined> {
  const files = Object.keys(delta).length;
  const summary = `Record ${calls} tool result(s), ${files} read file(s)`;
  const writes = {
    ...(toolResults ? { append: { head: sent, messages: [toolResults] } } : {}),
    ...(files > 0 ? { readFiles: { base, delta } } : {}),
  };
  try {
    const [head, readFilesRef] = await CancellationScope.nonCancellable(() =>
      localTurnEnd.recordTurnEnd.executeWithOptions({ summary }, [writes]),
    );
    return [toolResults ? head : sent, files > 0 ? readFilesRef : base];
  } catch (err) {
    if (isCancellation(err)) throw err;
    return undefined;
  }
}

/** A tool call whose attempts are exhausted. A timed-out, non-idempotent call may have had its effect: say so. */
export function failedCallRecord(err: unknown, block: ToolUseBlock, description: ToolUseDescription): ToolCallRecord {
  const timedOut = err instanceof ActivityFailure && err.cause instanceof TimeoutFailure;
  const cause =
    err instanceof ActivityFailure && err.cause ? err.cause.message : err instanceof Error ? err.message : String(err);
  return timedOut && !description.idempotent
    ? syntheticRecord(
        block,
        'unknown_outcome',
        `The outcome of this ${block.name} call is unknown: it timed out (${cause}) and was not re-run because it is not idempotent. The call was: ${description.summary}.`,
        description.summary,
      )
    : syntheticRecord(block, 'error', `Error calling tool ${block.name}: ${cause}`, description.summary);
}

/** What the turn tells its session: compact records, the new head, the context without its read files (stored by reference). */
export function turnResult(
  input: TurnWorkflowInput,
  outcome: TurnOutcome,
  modelResult: CallModelResult | undefined,
  modelStep: ManagedModelStep | undefined,
  head: string | null,
  readFilesRef: string | null,
): TurnWorkflowResult {
  const text = assistantText(modelResult?.message);
  return {
    turn: input.turn,
    reason: outcome.reason,
    records: outcome.records.map((r) => compact(r, true)),
    batches: outcome.batches,
    ...(outcome.usage ? { usage: outcome.usage } : {}),
    fallback: modelResult?.fallback ?? false,
    text: oneLinePreview(text, 2000),
    head,
    consumedAppend: modelResult !== undefined,
    context: { ...outcome.context, readFiles: {} },
    ...(readFilesRef ? { readFilesRef } : {}),
    ...(outcome.stopReason ? { stopReason: outcome.stopReason } : {}),
    ...(outcome.stopDetails ? { stopDetails: outcome.stopDetails } : {}),
    ...(modelStep ? { view: modelStep.view, compactions: modelStep.compactions } : {}),
    ...(modelStep?.compactionUsage ? { compactionUsage: modelStep.compactionUsage } : {}),
    ...withModelUsage(turnModelUsage(modelResult?.modelUsage, modelStep?.compactionModelUsage, outcome.records)),
    ...(outcome.discarded ? { discarded: outcome.discarded } : {}),
  };
}
