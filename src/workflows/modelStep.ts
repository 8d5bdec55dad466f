// The turn's model step as activities: `model-<turn>` (and `model-<turn>-<k>` after a compaction)
// and `compact-<n>`, scheduled by the engine's `runModelStep` — the same loop the in-process runner
// uses. Sandbox-safe: engine code and activity types only.
import type { CallModelInput, CallModelResult, ModelCallOutcome } from '../calls/model';
import type { CompactContextInput, CompactContextResult } from '../calls/compact';
import { INITIAL_VIEW, type CompactionRecord, type ContextView } from '../engine/contextView';
import { addUsage } from '../engine/contextWindow';
import { activityIds } from '../engine/ids';
import type { Usage } from '../engine/messages';
import { runModelStep, type ModelStepResult } from '../engine/modelStep';
import type { TurnWorkflowInput } from './definitions';

export interface ModelStepRunners {
  callModel(args: CallModelInput, activityId: string, summary: string): Promise<ModelCallOutcome>;
  compact(args: CompactContextInput, activityId: string, summary: string): Promise<CompactContextResult>;
}

export type ManagedModelStep = ModelStepResult<CallModelResult> & { compactionUsage?: Usage };

/** What a turn's model step keeps across the turn's outage retries (a compaction is not redone). */
export interface ModelStepState {
  view?: ContextView;
  compactions: CompactionRecord[];
  compactionUsage?: Usage;
  /** Scheduled `compact-<n>` activities, by n (a retried one gets `compact-<n>-attempt-<k>`). */
  compactTries: Record<number, number>;
}

export function newModelStepState(): ModelStepState {
  return { compactions: [], compactTries: {} };
}

/**
 * Model activity ids: the first call keeps `model-<turn>` (audits and recorded histories name it
 * so); a retry after an outage is `model-<turn>-attempt-<k>`, a call after a compaction adds `-<j>`.
 */
export function modelActivityId(turn: number, outageAttempt: number, stepAttempt: number): string {
  return activityIds.model(turn, outageAttempt, stepAttempt);
}

export async function managedModelStep(
  input: TurnWorkflowInput,
  run: ModelStepRunners,
  state: ModelStepState = newModelStepState(),
  outageAttempt = 1,
): Promise<ManagedModelStep> {
  let sentHead: string | null = input.head;
  const mcp = input.mcpServers ? { mcp: { servers: input.mcpServers, cwd: input.context.cwd } } : {};
  const step = await runModelStep<CallModelResult>(
    {
      async callModel(view, attempt, opts) {
        const outcome = await run.callModel(
          {
            sessionId: input.sessionId,
            turn: input.turn,
            head: input.head,
            append: input.append,
            ...(input.memory ? { memory: input.memory } : {}),
            settings: input.model,
            toolNames: input.tools,
            denyRules: input.rules.deny,
            ...(input.subagents?.agents ? { agents: input.subagents.agents } : {}),
            view,
            ...(input.contextSettings ? { contextSettings: input.contextSettings } : {}),
            ...(opts.autoCompact ? {} : { autoCompact: false }),
            ...(input.streamingToolExecution === false ? {} : { streamToolUses: true }),
            ...mcp,
          },
          modelActivityId(input.turn, outageAttempt, attempt),
          `Model call (turn ${input.turn}${attempt > 0 ? `, after compaction` : ''}, ${input.model.model})`,
        );
        if (outcome.kind === 'compact') {
          sentHead = outcome.sentHead;
          return { kind: 'compact', trigger: outcome.trigger, tokens: outcome.tokens, view: outcome.view };
        }
        return { kind: 'message', result: outcome, view: outcome.view };
      },
      async compact(view, trigger, n, attempt, tokens) {
        const tries = (state.compactTries[n] ?? 0) + 1;
        state.compactTries[n] = tries;
        const r = await run.compact(
          {
            sessionId: input.sessionId,
            turn: input.turn,
            n,
            trigger,
            attempt,
            head: sentHead,
            view,
            tokensBefore: tokens,
            settings: input.model,
            toolNames: input.tools,
            denyRules: input.rules.deny,
            ...(input.subagents?.agents ? { agents: input.subagents.agents } : {}),
            ...(input.contextSettings ? { contextSettings: input.contextSettings } : {}),
            ...(input.hooks ? { hooks: input.hooks } : {}),
            cwd: input.context.cwd,
            ...mcp,
          },
          activityIds.attempt(activityIds.compact(n), tries),
          `Compaction ${n} (${trigger === 'reactive' ? 'the API said the prompt is too long' : 'auto'}, ${tokens} tokens)`,
        );
        if (r.kind === 'blocked') return r;
        state.compactionUsage = addUsage(state.compactionUsage ?? { input_tokens: 0, output_tokens: 0 }, r.usage);
        state.view = r.view;
        state.compactions.push(r.record);
        return { kind: 'compacted', view: r.view, record: r.record };
      },
    },
    state.view ?? input.view ?? INITIAL_VIEW,
  );
  const all = { ...step, compactions: state.compactions };
  return state.compactionUsage ? { ...all, compactionUsage: state.compactionUsage } : all;
}

export type { CompactionRecord, ContextView };
