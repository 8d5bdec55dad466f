// The turn's model step as activities: `model-<turn>` (and `model-<turn>-<k>` after a compaction)
// and `compact-<n>`. The step itself is the core's (core/modelStep.ts), shared with the
// in-process runner; this file only names its types for the workflow's activities.
import type { AgentDefinition } from '../../agents/definitions';
import type { CallModelResult } from '../../runtime/model';
import type { McpServers } from '../../mcp/config';
import {
  managedModelStep as engineModelStep,
  type ManagedModelStep as EngineManagedModelStep,
  type ModelStepRunners as EngineModelStepRunners,
  type ModelStepState,
  newModelStepState,
} from '../../core/modelStep';
import type { CompactionRecord, ContextView } from '../../core/contextView';
import type { HooksJson, TurnWorkflowInput } from './definitions';

export type ModelStepRunners = EngineModelStepRunners<AgentDefinition, McpServers, HooksJson, CallModelResult>;
export type ManagedModelStep = EngineManagedModelStep<CallModelResult>;

export function managedModelStep(
  input: TurnWorkflowInput,
  run: ModelStepRunners,
  state: ModelStepState = newModelStepState(),
  outageAttempt = 1,
): Promise<ManagedModelStep> {
  return engineModelStep(input, run, state, outageAttempt);
}

export { modelActivityId, newModelStepState, type ModelStepState } from '../../core/modelStep';
export type { CompactionRecord, ContextView };
