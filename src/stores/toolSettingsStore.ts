// A session's tool settings (tool names, permission rules, sandbox, hooks, MCP server configs,
// agent definitions), stored once per session run, content-addressed, and carried by reference in
// every tool activity's input (`settingsRef`) instead of whole: with them inline, each runToolUse
// and describeToolUses input repeated the whole configuration, so history grew with calls ×
// configuration (invariant 11). Workers keep the settings they loaded in a small cache.
import { hashOf, MissingBlobError, type BlobStore } from './messageStore';
import type { HookPins } from '../core/context';
import type { AgentDefinition } from '../agents/definitions';
import type { SkillDefinition } from '../agents/skills';
import type { HooksConfig } from '../hooks';
import type { McpServers } from '../mcp/config';
import type { ToolPermissionContext } from '../toolProtocol/permissionTypes';

/**
 * What a session's tool activities share and the session stores once per run (ToolSettingsStore):
 * its tool names, rules, sandbox, hooks, MCP server configs and agent definitions.
 */
export interface StoredToolSettings {
  toolNames: string[];
  rules: ToolPermissionContext['rules'];
  sandbox?: ToolPermissionContext['sandbox'];
  hooks?: HooksConfig;
  hookPins?: HookPins;
  mcpServers?: McpServers;
  agents?: AgentDefinition[];
  skills?: SkillDefinition[];
  /**
   * The model's system prompt (issue 33): with it the blob holds every static part of a turn's
   * model call, whose inputs then carry the reference (`settingsRef`) instead of the system prompt,
   * tool names and agent definitions. Absent in blobs stored before it, and when the session has none.
   */
  system?: string;
}

/** What `storeToolSettings` answers (issue 33): the blob's key; its system prompt, tool names and agents are in it. */
export interface StoredSettingsRef {
  settingsRef: string;
}

export class ToolSettingsStore {
  private cache = new Map<string, StoredToolSettings>();
  constructor(
    private readonly blobs: BlobStore,
    private readonly cacheLimit = 64,
  ) {}

  /** Stores the settings; returns their key (`toolsettings-<sha256>`). Idempotent: same content, same key. */
  async put(settings: StoredToolSettings): Promise<string> {
    const data = JSON.stringify(settings);
    const key = `toolsettings-${hashOf(data)}`;
    if (!this.cache.has(key) && (await this.blobs.get(key)) === undefined) await this.blobs.put(key, data);
    this.remember(key, settings);
    return key;
  }

  async get(key: string): Promise<StoredToolSettings> {
    const hit = this.cache.get(key);
    if (hit) return hit;
    const data = await this.blobs.get(key);
    if (data === undefined) throw new MissingBlobError("the session's tool settings", key, this.blobs);
    if (`toolsettings-${hashOf(data)}` !== key)
      throw new Error(`the stored tool settings ${key} do not match their hash`);
    const parsed = JSON.parse(data) as StoredToolSettings;
    this.remember(key, parsed);
    return parsed;
  }

  private remember(key: string, value: StoredToolSettings): void {
    this.cache.delete(key);
    this.cache.set(key, value);
    if (this.cache.size > this.cacheLimit) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }
}
