// The pipeline's data: what a call runs with (PipelineEnv), what it resolves to (ToolUseOutcome),
// and the two phases of a call the scheduler executes itself.
import type { AgentContext, ContextModifier, HookPins } from '../../core/context';
import type { NetworkRecord, SandboxRecord } from '../../core/toolRecords';
import type { Message, ToolResultBlockParam } from '../../core/apiMessages';
import type { AgentHookFields, HookRun, HooksConfig } from '../../hooks/types';
import type { DecisionReason, ResultStore, ToolProgress, ToolUseContext } from '../../toolProtocol/Tool';
import type { ToolPermissionContext } from '../../toolProtocol/permissionTypes';
import type { ToolPool } from '../../toolProtocol/pool';
import type { AgentDefinition } from '../../agents/definitions';
import type { SubagentOutput, SubagentResume } from '../../core/subagents';
import type { SandboxHost } from '../../sandbox/host';

/**
 * A call whose execution the scheduler does itself (the Agent tool under Temporal: a child
 * workflow, not an activity): 'pre' stops after the permission decision with status 'ready';
 * 'post' continues from there with the output the scheduler got — result mapping, size policy,
 * PostToolUse hooks. The two halves are the one pipeline, cut where call() would run.
 */
export type PipelinePhase = { kind: 'pre' } | { kind: 'post'; resume: SubagentResume; output: SubagentOutput };

export interface ApprovalResolution {
  decision: 'approve' | 'deny';
  by?: string;
  reason?: string;
  /** 'unattended': no approver is attached (the in-process runner without onAsk). */
  source?: 'human' | 'timeout' | 'mode' | 'unattended';
  /** For source 'timeout': how long the approval waited. */
  afterMs?: number;
}

export interface PipelineEnv {
  pool: ToolPool;
  sessionId: string;
  /**
   * Scopes `ctx.idempotencyKey` to one session even when a later session reuses the id (the
   * durable runner passes the session's ledger key). Default: the key is `<sessionId>/<tool_use_id>`.
   */
  idempotencyScope?: string;
  agent: AgentContext;
  permission: ToolPermissionContext;
  /** Either the inner map or a whole settings object `{ hooks: {...} }`. */
  hooks?: HooksConfig | { hooks: HooksConfig };
  /** The files the session's command hooks run, pinned at its start; their root is where hooks run (src/hooks/pins.ts). */
  hookPins?: HookPins;
  resultStore?: ResultStore;
  /** The worker's own state, kept from sandboxed commands (ToolUseContext.privatePaths). */
  privatePaths?: readonly string[];
  /** Bash's OS sandbox on this host (ToolUseContext.sandboxHost). */
  sandboxHost?: SandboxHost;
  abortSignal?: AbortSignal;
  onProgress?: (p: ToolProgress) => void;
  /** Resolution of an earlier 'ask' for this same tool_use_id (a human approved or denied, or a timeout). */
  approval?: ApprovalResolution;
  /**
   * Awaited right before call(), after every check passed: the durable runner records here that
   * the side effect may have started (its execution ledger), so a lost worker is detectable.
   * If it throws, the call does not run and the failure becomes an error result.
   */
  beforeCall?: () => Promise<void>;
  /** Writes the conversation so far as a JSONL file for the hooks' `transcript_path` (only called when hooks run). */
  transcriptPath?: () => Promise<string | undefined>;
  /** The session's agent types (the Agent tool's validateInput). */
  agents?: readonly AgentDefinition[];
  /** The session's skills (the Skill tool). */
  skills?: ToolUseContext['skills'];
  /** How this scheduler runs a subagent in call() (the in-process runner). */
  runSubagent?: ToolUseContext['runSubagent'];
  /** The scheduler runs background tasks (ToolUseContext.backgroundTasks). */
  backgroundTasks?: boolean;
  /** The scheduler runs Monitor tasks too (ToolUseContext.monitorTasks). */
  monitorTasks?: boolean;
  /** The worker's model access for tools that call a model themselves (ToolUseContext.sideModel). */
  sideModel?: ToolUseContext['sideModel'];
  phase?: PipelinePhase;
  /**
   * Was the tool deferred and not loaded in the request the model answered with this call (tool
   * search)? A schema error then says how to load it (docs/tools.md "Deferred tools and ToolSearch").
   * Asked only when the input fails the schema; absent: never.
   */
  deferredNotLoaded?: (toolName: string) => Promise<boolean>;
  /** Inside a subagent: the parent's `session_id`, `agent_id` and `agent_type` for every hook input (as the reference). */
  agentHookFields?: AgentHookFields;
}

export type ToolUseStatus = 'ok' | 'error' | 'denied' | 'interrupted' | 'ask' | 'ready';
export type FailureStage = 'unknown_tool' | 'schema' | 'validate' | 'hook' | 'permission' | 'call' | 'aborted';

export interface ToolUseOutcome {
  toolUseId: string;
  toolName: string;
  status: ToolUseStatus;
  /** Absent only when status === 'ask'. */
  result?: ToolResultBlockParam;
  contextModifiers: ContextModifier[];
  newMessages: Message[];
  /** The input actually used (after hooks' updatedInput). */
  input: unknown;
  permission?: { behavior: 'allow' | 'ask' | 'deny'; decisionReason?: DecisionReason; message?: string };
  ask?: { message: string; decisionReason?: DecisionReason };
  failure?: { stage: FailureStage; message: string };
  hookNotices: string[];
  /** Every hook that ran, for the audit trail (stdout/stderr cut to 2,000 chars). */
  hookRuns?: HookRun[];
  /** A hook answered `continue: false`: the agent should stop after this turn. */
  stop?: { reason: string; hook: string };
  persistedTo?: string;
  /** Status 'ready' (phase 'pre'): where the post-call phase continues. */
  ready?: SubagentResume;
  /** How the call was contained, as the tool reported it (Bash: sandboxed or not, violations). */
  sandbox?: SandboxRecord;
  /** What a web tool reached, as it reported it. */
  network?: NetworkRecord;
  startedAt: number;
  endedAt: number;
}
