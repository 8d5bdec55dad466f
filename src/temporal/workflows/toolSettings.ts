// What a session's tool activities are told about its settings (finding 7 of issue 21): under
// TOOL_SETTINGS_REF_PATCH the session stores its tool settings once per run (the local activity
// storeToolSettings, content-addressed) and every runToolUse / describeToolUses / Agent-phase input
// carries that reference plus the few per-turn fields, so history no longer grows with
// calls × configuration. Turns of sessions started before the patch get no reference and send the
// settings inline, as they always did. Since issue 33 the stored settings hold the system prompt too,
// and the turn's model calls carry the same reference (`settingsRef`) instead of the system prompt,
// tool names and agent definitions (turnInput.ts). Workflow code: pure.
import type { StoredToolSettings, ToolSessionInput, ToolSessionSettings } from '../../toolCall/tools';
import type { SessionInput, TurnWorkflowInput } from './definitions';

/** The settings the session stores: exactly what its turns would otherwise put inline in every tool activity's input. */
export function storedToolSettings(input: SessionInput): StoredToolSettings {
  const agents = input.tools.includes('Agent') && !input.parent ? input.agents : undefined;
  const skills = input.tools.includes('Skill') && input.skills && input.skills.length > 0 ? input.skills : undefined;
  return {
    toolNames: input.tools,
    rules: input.rules,
    ...(input.sandbox ? { sandbox: input.sandbox } : {}),
    ...(input.hooks ? { hooks: input.hooks as StoredToolSettings['hooks'] } : {}),
    ...(input.hookPins ? { hookPins: input.hookPins } : {}),
    ...(input.mcpServers && Object.keys(input.mcpServers).length > 0 ? { mcpServers: input.mcpServers } : {}),
    ...(agents ? { agents } : {}),
    ...(skills ? { skills } : {}),
    ...(input.model.system !== undefined ? { system: input.model.system } : {}),
  };
}

/** The session as the turn's tool activities see it: by reference when the session stored its settings, else whole. */
export function toolSession(input: TurnWorkflowInput): ToolSessionInput {
  const workingDirectories = [input.context.cwd, ...input.context.additionalDirectories];
  const settingsRef = input.settingsRef ?? input.toolSettingsRef;
  if (settingsRef) {
    return {
      sessionId: input.sessionId,
      ...(input.ledgerKey ? { ledgerKey: input.ledgerKey } : {}),
      settingsRef,
      mode: input.permissionMode,
      workingDirectories,
      ...(input.agentHookFields ? { agentHookFields: input.agentHookFields } : {}),
    };
  }
  const inline: ToolSessionSettings = {
    sessionId: input.sessionId,
    ...(input.ledgerKey ? { ledgerKey: input.ledgerKey } : {}),
    toolNames: input.tools ?? [],
    permission: {
      mode: input.permissionMode,
      rules: input.rules,
      workingDirectories,
      ...(input.sandbox ? { sandbox: input.sandbox } : {}),
    },
    ...(input.hooks ? { hooks: input.hooks as ToolSessionSettings['hooks'] } : {}),
    ...(input.hookPins ? { hookPins: input.hookPins } : {}),
    ...(input.mcpServers ? { mcpServers: input.mcpServers } : {}),
    ...(input.subagents?.agents ? { agents: input.subagents.agents } : {}),
    ...(input.skills ? { skills: input.skills } : {}),
    ...(input.agentHookFields ? { agentHookFields: input.agentHookFields } : {}),
  };
  return inline;
}
