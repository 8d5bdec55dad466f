// `run`'s flags as commander parses them, and what its steps hand each other.
import { terminalSafe } from '../terminalText';
import type { AgentDefinition } from '../../agents/definitions';
import type { SkillDefinition } from '../../agents/skills';
import type { SessionOptions } from '../../temporal/client';
import type { resolveMcpServers } from '../../mcp/config';
import type { loadMemory } from '../../claudeMd/claudeMd';
import type { PermissionMode } from '../../toolProtocol/permissionTypes';
import type { ConnOpts } from '../options';
import type { OutputFormat } from '../printFormat';
import type { EffectiveSettings } from '../settings';

/** The flags of `run`, as commander parses them (see addRunCommand). */
export interface RunOpts extends ConnOpts {
  cwd: string;
  worktree?: string | true;
  /** Start although the worktree's control files came with a checkout and differ from the main checkout's. */
  trustCheckout?: boolean;
  model?: string;
  maxTokens?: number;
  /** The reference's `--thinking` (hidden there): enabled and adaptive ask for adaptive thinking, disabled for none. */
  thinking?: 'enabled' | 'adaptive' | 'disabled';
  /** The reference's `--max-thinking-tokens` (deprecated there): a budget, 0 off; MAX_THINKING_TOKENS beats it. */
  maxThinkingTokens?: number;
  systemPrompt?: string;
  appendSystemPrompt?: string;
  permissionMode?: PermissionMode;
  allow: string[];
  ask: string[];
  deny: string[];
  addDir: string[];
  mcpConfig: string[];
  strictMcpConfig?: boolean;
  maxTurns?: number;
  notifyWebhook?: string;
  maxTotalTokens?: number;
  maxBudgetUsd?: number;
  onBudget?: 'wait' | 'end';
  budgetThreshold?: number;
  approvalTimeout?: number;
  onInterrupt?: 'wait' | 'end';
  id?: string;
  toolTaskQueue?: string;
  sandbox?: boolean;
  streamingTools?: boolean;
  toolSearch?: string;
  detach?: boolean;
  print?: boolean;
  outputFormat?: OutputFormat;
  verbose?: boolean;
}

export type Memory = ReturnType<typeof loadMemory>;
export type McpServers = ReturnType<typeof resolveMcpServers>;
export type RunSessionOptions = SessionOptions & { id?: string; taskQueue?: string };

/** What `run` loaded for the session (steps 1–6), which step 9 names. */
export interface Loaded {
  cwd: string;
  settings: EffectiveSettings;
  memory: Memory;
  mcp: McpServers;
  agents: AgentDefinition[];
  skills: SkillDefinition[];
}

export function warn(w: string): void {
  process.stderr.write(`durable-agent: warning: ${terminalSafe(w)}\n`);
}
