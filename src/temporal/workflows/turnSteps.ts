// A turn child of several model steps (issue 33, core/turnSteps.ts): the next step's input from the
// previous step's result, as the session would have built it, and the steps' results as one report
// for the session (usage, cost, tool records of all steps; the last step's head, context and reason).
import { addUsage } from '../../core/contextWindow';
import { addModelUsage } from '../../core/modelUsage';
import { CancellationScope, isCancellation, setHandler, workflowInfo } from '@temporalio/workflow';
import { totalTokens } from '../../core/sessionState';
import { budgetLimitsNow, budgetSpend, type BudgetLimits } from '../../core/budget';
import { sessionConfig } from '../../core/session';
import { runTurnSteps, type StepReturn, type TurnStepLimits } from '../../core/turnSteps';
import type { TurnReport } from '../../core/sessionExecutor';
import {
  turnYieldSignal,
  type SessionCarry,
  type SessionInput,
  type TurnWorkflowInput,
  type TurnWorkflowResult,
} from './definitions';

/** A child's steps stop past this history size (bytes, the server's count): the child's history stays small. */
const STEP_HISTORY_BYTES = 4 * 1024 * 1024;

/**
 * One model step (turn.ts runTurnStep); `onRun` sees the step's run (its interrupt flag) as it starts;
 * `continues` says whether another step follows (the step may then leave its writes to it: `carry`).
 */
export type RunStep = (
  input: TurnWorkflowInput,
  onRun?: (run: { interrupted: boolean; done: TurnWorkflowResult['records'] }) => void,
  earlier?: ReadonlyArray<{ turn: number; done: TurnWorkflowResult['records'] }>,
  continues?: (step: TurnWorkflowResult) => boolean,
) => Promise<TurnWorkflowResult>;

/** Makes a step's carried writes (a step after it failed): the step as if it had written them itself. */
export type SettleCarry = (step: TurnWorkflowResult) => Promise<TurnWorkflowResult>;

/**
 * The turn child of several steps: `runStep` after `runStep` until core/turnSteps.ts says return; a
 * turnYield signal from the session asks it to. A later step that fails: the steps before it are
 * reported, with the error (the session records them, then fails at that turn).
 */
export async function runSteps(
  input: TurnWorkflowInput,
  limits: TurnStepLimits,
  runStep: RunStep,
  settle: SettleCarry,
): Promise<TurnWorkflowResult> {
  let yielded = false;
  setHandler(turnYieldSignal, () => {
    yielded = true;
  });
  let current: { interrupted: boolean; done: TurnWorkflowResult['records'] } | undefined;
  // What the progress query shows of the earlier steps: their runs' records, previews included.
  const shown: Array<{ turn: number; done: TurnWorkflowResult['records'] }> = [];
  const done: TurnWorkflowResult[] = [];
  try {
    const { returned } = await runTurnSteps<TurnWorkflowResult>(limits, input.context, {
      runStep: async (index, previous, continues) => {
        const stepInput = index === 0 || !previous ? input : nextStepInput(input, previous);
        const earlier = [...shown];
        const step = await runStep(
          stepInput,
          (run) => {
            current = run;
          },
          earlier,
          continues,
        );
        done.push(step);
        shown.push({ turn: step.turn, done: current ? [...current.done] : step.records });
        return step;
      },
      // An interrupt that came after a step's tool calls ended (while it recorded them) ends the child too.
      yieldRequested: () => yielded || current?.interrupted === true,
      historyFull: () => workflowInfo().historySize > STEP_HISTORY_BYTES || workflowInfo().continueAsNewSuggested,
    });
    return aggregateSteps(done, returned);
  } catch (err) {
    if (done.length === 0 || isCancellation(err)) throw err;
    // The failed step did not make the writes the step before it left to its model call.
    const last = done[done.length - 1] as TurnWorkflowResult;
    if (last.carry) done[done.length - 1] = await settle(last);
    return aggregateSteps(done, 'failed', err instanceof Error ? err.message : String(err));
  }
}

/**
 * Throws the session's cancellation when it was requested while the loop ran (turn children of
 * steps only): a child cancelled with its session records its cancelled calls as interrupted and
 * returns an interrupted turn, which a subagent (onInterrupt `end`) would take for an interrupt and
 * complete; it must end cancelled, as a child per step did (its next turn's start threw).
 */
export async function cancelledMeanwhile(turnSteps: boolean): Promise<void> {
  const root = CancellationScope.current();
  if (turnSteps && root.consideredCancelled) await root.cancelRequested;
}

/** A turn that failed (or whose child's later step failed: `stepFailure`): the session ends with its error. */
export function failedTurnReport(state: SessionCarry, error: string): TurnReport {
  return {
    reason: 'failed',
    consumedAppend: false,
    head: state.head,
    context: state.context,
    records: [],
    text: '',
    error,
  };
}

/**
 * Step n+1's input: what `turnWorkflowInput` makes of the session's state after step n
 * (applyTurnReport): its head, context, read files and view; nothing appended; the memory went
 * with the first message. The model is the same: a step that changes skill grants returns.
 */
export function nextStepInput(input: TurnWorkflowInput, previous: TurnWorkflowResult): TurnWorkflowInput {
  const { memory: _sent, readFilesRef: _r, view: _v, carry: _c, ...rest } = input;
  const readFilesRef = previous.readFilesRef ?? input.readFilesRef;
  const view = previous.view ?? input.view;
  return {
    ...rest,
    turn: previous.turn + 1,
    head: previous.head,
    append: [],
    context: previous.context,
    ...(readFilesRef ? { readFilesRef } : {}),
    ...(view ? { view } : {}),
    // The previous step's writes, left to this step's model call (TURN_STEP_WRITES_PATCH).
    ...(previous.carry ? { carry: previous.carry } : {}),
  };
}

const lastOf = <T>(steps: TurnWorkflowResult[], pick: (s: TurnWorkflowResult) => T | undefined): T | undefined =>
  steps.reduce<T | undefined>((found, s) => pick(s) ?? found, undefined);

/** The steps' results as one (a single step's result as it is, with why the child returned). */
export function aggregateSteps(
  steps: TurnWorkflowResult[],
  returned: StepReturn | 'failed',
  error?: string,
): TurnWorkflowResult {
  const first = steps[0] as TurnWorkflowResult;
  const last = steps[steps.length - 1] as TurnWorkflowResult;
  const why = { returned, ...(error !== undefined ? { error } : {}) };
  if (steps.length === 1) return { ...first, ...why };
  const usages = steps.flatMap((s) => (s.usage ? [s.usage] : []));
  const compactionUsages = steps.flatMap((s) => (s.compactionUsage ? [s.compactionUsage] : []));
  const modelUsage = steps.reduce<TurnWorkflowResult['modelUsage']>(
    (u, s) => (s.modelUsage ? addModelUsage(u, s.modelUsage) : u),
    undefined,
  );
  const compactions = steps.flatMap((s) => s.compactions ?? []);
  const discarded = steps.flatMap((s) => s.discarded ?? []);
  const readFilesRef = lastOf(steps, (s) => s.readFilesRef ?? undefined);
  const view = lastOf(steps, (s) => s.view);
  const text = lastOf(steps, (s) => s.text || undefined) ?? '';
  const {
    usage: _u,
    compactionUsage: _c,
    modelUsage: _m,
    discarded: _d,
    compactions: _cs,
    carry: _carry,
    ...lastRest
  } = last;
  return {
    ...lastRest,
    turn: first.turn,
    steps: steps.length,
    records: steps.flatMap((s) => s.records),
    batches: steps.flatMap((s) => s.batches),
    fallback: steps.some((s) => s.fallback),
    text,
    consumedAppend: first.consumedAppend,
    ...(usages.length ? { usage: usages.reduce((a, b) => addUsage(a, b)) } : {}),
    ...(last.usage ? { lastUsage: last.usage } : {}),
    ...(readFilesRef ? { readFilesRef } : {}),
    ...(view ? { view } : {}),
    ...(compactions.length ? { compactions } : {}),
    ...(compactionUsages.length ? { compactionUsage: compactionUsages.reduce((a, b) => addUsage(a, b)) } : {}),
    ...(modelUsage ? { modelUsage } : {}),
    ...(discarded.length ? { discarded } : {}),
    ...why,
  };
}

/**
 * Model steps per turn child by default (SessionInput.maxStepsPerTurn; a child also returns past 4 MB
 * of history, and wherever the session must act: core/turnSteps.ts nextStep). 1 gives a child per
 * step, as before 0.3.0. It bounds what a worker replays when it takes a running child over (a
 * rolling deploy, a crash): ≈ 11 ms of workflow CPU per step here, ≈ 24 events and 8.6 KB of history
 * (issue 32; bench/turnReplay.ts). 25, not 50: half the replay for one more turn boundary per 50
 * steps (≈ 30 events, 7.5 KB: +2.7 % events, +1.7 % bytes); 10 would cost +11 % and +7 %.
 * Sent in the child's input: changing it changes no workflow's commands, only the next children's.
 */
export const MAX_STEPS_PER_CHILD = 25;

/**
 * A turn child's limits (issue 33): the step cap, the session's maxTurns left (turn `turn` is the
 * first), its tokens left, and what the tree's budget has left (issue 34, a root with a budget): the
 * child returns at the step boundary where its steps spent it, and the session's budget gate waits.
 */
export function turnStepLimits(input: SessionInput, state: SessionCarry, turn: number): TurnStepLimits {
  const budget = input.parent ? undefined : sessionConfig(input).budget;
  const cap = Math.floor(input.maxStepsPerTurn ?? MAX_STEPS_PER_CHILD);
  const left = input.maxTurns !== undefined ? input.maxTurns - turn + 1 : cap;
  return {
    maxSteps: Math.max(1, Math.min(cap, left)),
    ...(input.maxTotalTokens !== undefined ? { tokensLeft: input.maxTotalTokens - totalTokens(state.usage) } : {}),
    ...(budget ? budgetLeft(budget, state) : {}),
  };
}

/** What the tree's budget has left now (its spend: the session's counted usage and its children's reports). */
function budgetLeft(
  budget: BudgetLimits,
  state: SessionCarry,
): Pick<TurnStepLimits, 'budgetUsdLeft' | 'budgetTokensLeft'> {
  const lim = budgetLimitsNow(budget, state.budget);
  const spend = budgetSpend(state);
  return {
    ...(lim.usd !== undefined ? { budgetUsdLeft: lim.usd - spend.usd } : {}),
    ...(lim.tokens !== undefined ? { budgetTokensLeft: lim.tokens - spend.tokens } : {}),
  };
}
