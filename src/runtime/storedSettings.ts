// A model call's static settings by reference (issue 33): the session stores its system prompt,
// tool names and agent definitions once per run with its tool settings (storeToolSettings), and
// the turn's `callModel` / `compactContext` inputs carry that reference (`settingsRef`) instead of
// copying them into every turn's history. Inputs recorded before carry them inline, and so does
// the in-process runner: both pass through unchanged.
import type { AgentDefinition } from '../agents/definitions';
import type { ToolSettingsStore } from '../stores/toolSettingsStore';
import type { ModelSettings } from './modelTypes';

/** What a model call's input says of the static settings: inline, or by reference. */
export interface StaticSettingsInput {
  settings: ModelSettings;
  toolNames?: string[];
  agents?: AgentDefinition[];
  /** The session's stored settings (`toolsettings-<sha256>`); with it, `toolNames`, `agents` and `settings.system` are absent. */
  settingsRef?: string;
}

/** The input with its static settings inline: read from the store (cached per worker) when given by reference. */
export async function withStoredSettings<T extends StaticSettingsInput>(
  input: T,
  store: ToolSettingsStore | undefined,
): Promise<T & { toolNames: string[] }> {
  if (input.settingsRef === undefined) {
    if (!Array.isArray(input.toolNames))
      throw new Error('a model call needs its tool names, or the reference of the stored settings (settingsRef)');
    return input as T & { toolNames: string[] };
  }
  if (!store) throw new Error("this worker has no store to read the session's settings from (settingsRef)");
  const stored = await store.get(input.settingsRef);
  const { settingsRef: _inlined, ...rest } = input;
  return {
    ...rest,
    settings: { ...input.settings, ...(stored.system !== undefined ? { system: stored.system } : {}) },
    toolNames: stored.toolNames,
    ...(stored.agents ? { agents: stored.agents } : {}),
  } as unknown as T & { toolNames: string[] };
}
