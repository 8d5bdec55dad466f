// The turn child's input, built from the session's input and state (pure; the session workflow
// calls it for every turn, and tests call it to see what a turn receives).
import { modelWithSkillGrants } from '../../core/context';
import { DEFAULT_APPROVAL_TIMEOUT_MS } from '../../core/session';
import type { agentHookFields } from '../../core/subagents';
import type { SessionCarry, SessionInput, SubagentSettings, TurnWorkflowInput } from './definitions';

/** What a subagent inherits besides the turn's settings (present only when the session offers Agent; the agents not when stored). */
function subagentSettings(input: SessionInput, stored: boolean, sessionId: string): SubagentSettings {
  return {
    ...(input.agents && !stored ? { agents: input.agents } : {}),
    ...(input.memory ? { memory: input.memory } : {}),
    ...(input.maxTurns !== undefined ? { maxTurns: input.maxTurns } : {}),
    // A tree budget is the root's alone (its children are held by it, not by a limit of their own).
    ...(input.maxTotalTokens !== undefined && !treeBudget(input) ? { maxTotalTokens: input.maxTotalTokens } : {}),
    ...(input.useSearchAttributes ? { useSearchAttributes: true } : {}),
    ...(treeBudget(input) ? { budgetRoot: sessionId } : {}),
    ...(input.maxStepsPerTurn !== undefined ? { maxStepsPerTurn: input.maxStepsPerTurn } : {}),
  };
}

/** The turn child's input: the session's settings and state as the turn needs them (key order is the recorded one). */
export function turnWorkflowInput(
  input: SessionInput,
  state: SessionCarry,
  run: {
    sessionId: string;
    turn: number;
    append: TurnWorkflowInput['append'];
    agentHooks: ReturnType<typeof agentHookFields> | undefined;
    toolSettingsRef: string | undefined;
    /** The stored settings with the system prompt (issue 33): the model's static settings stay out of the input. */
    settingsRef?: string | undefined;
  },
): TurnWorkflowInput {
  const { sessionId, turn, append, agentHooks, toolSettingsRef, settingsRef } = run;
  const stored = settingsRef !== undefined;
  return {
    sessionId,
    ledgerKey: state.ledgerKey,
    turn,
    head: state.head,
    append,
    // A loaded skill's `model` (absent in every session recorded before skills: the same input).
    model: modelWithSkillGrants(stored ? withoutSystem(input.model) : input.model, state.context),
    ...(stored ? {} : { tools: input.tools }),
    permissionMode: input.permissionMode,
    rules: input.rules,
    ...(input.sandbox ? { sandbox: input.sandbox } : {}),
    ...(input.hooks ? { hooks: input.hooks } : {}),
    ...(input.hookPins ? { hookPins: input.hookPins } : {}),
    ...(agentHooks ? { agentHookFields: agentHooks } : {}),
    ...(state.memoryRef ? { memory: state.memoryRef } : {}),
    ...(input.mcpServers && Object.keys(input.mcpServers).length > 0 ? { mcpServers: input.mcpServers } : {}),
    context: state.context,
    ...(state.readFilesRef ? { readFilesRef: state.readFilesRef } : {}),
    maxConcurrency: input.maxConcurrency ?? 10,
    ...(input.streamingToolExecution === false ? { streamingToolExecution: false } : {}),
    approvalTimeoutMs: input.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
    ...(input.retryCapMs !== undefined || input.maxOutageMs !== undefined
      ? {
          retry: {
            ...(input.retryCapMs !== undefined ? { retryCapMs: input.retryCapMs } : {}),
            ...(input.maxOutageMs !== undefined ? { maxOutageMs: input.maxOutageMs } : {}),
          },
        }
      : {}),
    ...(input.toolTaskQueue ? { toolTaskQueue: input.toolTaskQueue } : {}),
    ...(input.modelTaskQueue ? { modelTaskQueue: input.modelTaskQueue } : {}),
    ...(input.toolHeartbeatTimeoutMs ? { toolHeartbeatTimeoutMs: input.toolHeartbeatTimeoutMs } : {}),
    ...(state.view ? { view: state.view } : {}),
    ...(input.contextManagement ? { contextSettings: input.contextManagement } : {}),
    ...(input.tools.includes('Agent') && !input.parent
      ? { subagents: subagentSettings(input, stored, sessionId) }
      : {}),
    ...(stored ? { settingsRef } : toolSettingsRef ? { toolSettingsRef } : {}),
    ...budgetOfTurn(input, sessionId),
    // No stored settings (the store refused them): the skills travel with the turn, as the rest of the settings do.
    ...(!stored && !toolSettingsRef && input.tools.includes('Skill') && input.skills && input.skills.length > 0
      ? { skills: input.skills }
      : {}),
  };
}

/** The model settings without the system prompt (the stored settings hold it). */
function withoutSystem(model: SessionInput['model']): SessionInput['model'] {
  const { system: _stored, ...rest } = model;
  return rest;
}

/** Does the session hold its tree to a budget (issue 34; core/session.ts sessionConfig decides the same)? */
export function treeBudget(input: SessionInput): boolean {
  return !input.parent && (input.onBudget !== undefined || input.maxBudgetUsd !== undefined);
}

/**
 * The turn's budget link: the root's own, or the one its parent gave a child (absent: no budget, the
 * input as recorded). The root's own turn charges its steps to itself as a foreground child does
 * (`fg:<root>`): a turn child runs many steps, and the background agents that ask the root's budget
 * before each call must see what the running turn spent so far, not only what it spent by its end
 * (red team round f). The session drops those reports when the turn's usage lands (settleInFlight).
 */
function budgetOfTurn(input: SessionInput, sessionId: string): Pick<TurnWorkflowInput, 'budget'> {
  if (input.budgetLink) return { budget: input.budgetLink };
  return treeBudget(input) ? { budget: { rootId: sessionId, chargeTo: `fg:${sessionId}` } } : {};
}
