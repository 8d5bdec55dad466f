// The shapes of a tool call for any scheduler: a session's tool settings (whole or by reference),
// a call's input, what the calls depend on (ToolDeps), the Agent call's phases. toolCall/tools.ts
// re-exports them; toolLedger.ts and toolSession.ts read them from here.
import type { BudgetLink } from '../core/budget';
import type { HeartbeatPolicy } from '../runtime/heartbeat';
import type { AgentContext, HookPins } from '../core/context';
import type { ToolUseBlock } from '../core/apiMessages';
import type { Approval, ToolRunResult } from '../core/turn';
import type { SandboxHost } from '../sandbox/host';
import type { HooksConfig } from '../hooks';
import type { AgentHookFields } from '../hooks/types';
import type { ExecutionLedger } from '../stores/executionLedger';
import type { TranscriptStore } from '../stores/messageStore';
import type { PayloadStore } from '../stores/payloadStore';
import type { ReadFilesStore } from '../stores/readFilesStore';
import type { ToolSettingsStore } from '../stores/toolSettingsStore';
import type { StepStaticsStore } from '../stores/stepStaticsStore';
import type { PermissionMode } from '../toolProtocol/permissionTypes';
import type { ResultStore } from '../toolProtocol/Tool';
import type { ToolPool } from '../toolProtocol/pool';
import type { ToolPermissionContext } from '../toolProtocol/permissionTypes';
import type { McpServers } from '../mcp/config';
import type { McpSessionListing } from '../mcp/sandboxed';
import type { PipelinePhase } from './pipeline/types';
import type { AgentDefinition } from '../agents/definitions';
import type { SkillDefinition } from '../agents/skills';
import type { SubagentCall, SubagentOutput, SubagentResume } from '../core/subagents';
import type { ToolUseContext } from '../toolProtocol/Tool';
/**
 * A session's MCP servers as the pool needs them: the config, the session's root (where servers
 * start), its sandbox (src/mcp/sandboxed.ts), and (for a call) the tool wanted.
 */
export interface SessionMcp extends McpSessionListing {
  /** Only this tool's server is listed (a call); a failed server yields a stand-in answering with the failure. */
  wanted?: string;
}

/** The pre-call phase of a call the scheduler runs itself: ready to start the child session. */
export type SubagentPrepared = ToolRunResult | { kind: 'ready'; call: SubagentCall };

export interface ToolSessionSettings {
  sessionId: string;
  /**
   * Keys the execution ledger: unique per session (the session's first run id under Temporal),
   * so that a session reusing an earlier session's id never meets its records. Default: sessionId.
   */
  ledgerKey?: string;
  toolNames: string[];
  permission: ToolPermissionContext;
  hooks?: HooksConfig;
  /** The files its command hooks run, pinned at its start; their root is where the hooks run (src/hooks/pins.ts). */
  hookPins?: HookPins;
  /** The session's MCP servers (unexpanded: `${VAR}` expands on the worker); their tools join the pool. */
  mcpServers?: McpServers;
  /** The session's agent types (the Agent tool); absent = general-purpose only. */
  agents?: AgentDefinition[];
  /** The session's skills (the Skill tool); absent = none. */
  skills?: SkillDefinition[];
  /** A subagent's session: what every hook input carries besides the common fields (parent session_id, agent_id, agent_type). */
  agentHookFields?: AgentHookFields;
}

/**
 * The session's tool settings by reference, as a tool activity's input carries them (the session
 * stored them: TOOL_SETTINGS_REF_PATCH); what varies per turn (mode, working directories) and per
 * subagent (its hook fields) stays inline.
 */
export interface ToolSessionRef {
  sessionId: string;
  ledgerKey?: string;
  /** The `toolsettings-<sha256>` blob of the session's StoredToolSettings. */
  settingsRef: string;
  mode: PermissionMode;
  workingDirectories: string[];
  agentHookFields?: AgentHookFields;
}

/** A tool activity's session: whole (histories before the patch, the in-process runner) or by reference. */
export type ToolSessionInput = ToolSessionSettings | ToolSessionRef;

export interface RunToolUseInput {
  session: ToolSessionInput;
  /** With `messageRef`: only `id` and `name` count (the input may be a preview); the block is read from the store. */
  block: ToolUseBlock;
  /** The model call's transcript node, which holds the whole tool_use block (payloads by reference). */
  messageRef?: string | null;
  /** Under Temporal: `context.readFiles` holds only this turn's entries; the rest is in the store under this reference. */
  context: AgentContext;
  readFilesRef?: string | null;
  approval?: Approval;
  /** The half of the pipeline to run for a call the scheduler executes itself (see PipelinePhase). */
  phase?: PipelinePhase;
  /** A child's tool call: where its side model calls are charged as they are made (issue 34). */
  budget?: BudgetLink;
}

export interface ToolDeps {
  /** The session's pool: the named tools of the worker's registry, filtered by deny rules and isEnabled. */
  pool: (toolNames: string[], permission: ToolPermissionContext, mcp?: SessionMcp) => ToolPool | Promise<ToolPool>;
  ledger: ExecutionLedger;
  /** Where the session's read-file state lives between turns (required to resolve `readFilesRef`). */
  readFiles?: ReadFilesStore;
  resultStore: (sessionId: string) => ResultStore;
  /** The worker's own state, kept from sandboxed Bash (the store, the data directory, a dev server's database). */
  privatePaths?: readonly string[];
  /** Bash's OS sandbox on this worker (the worker's start-up owns it). */
  sandboxHost?: SandboxHost;
  /** Where the model's messages are: tool inputs are read from there (`messageRef`), not from history. */
  transcripts?: TranscriptStore;
  /** Where result blocks are stored: an activity returns a reference and a preview, not the whole result. */
  payloads?: PayloadStore;
  /** Hooks the worker adds programmatically (library users), merged with the session's. */
  hooks?: HooksConfig;
  /** When tool calls heartbeat (default TOOL_HEARTBEATS: on progress, else a keepalive after 300 ms and every second: core/heartbeats.ts). */
  heartbeats?: HeartbeatPolicy;
  /** Where a session's tool settings are stored once (tool activities get a reference: `settingsRef`). */
  toolSettings?: ToolSettingsStore;
  /** Where a turn child's static step inputs are (a call given `stepRef` reads its session and context there). */
  stepStatics?: StepStaticsStore;
  /** Where a session's transcript JSONL is written for hooks (`transcript_path`). */
  transcriptFile?: (sessionId: string) => string;
  /** Model calls tools make themselves (WebFetch, WebSearch): the worker's client and small, fast model. */
  sideModel?: ToolUseContext['sideModel'];
}

/**
 * A tool activity's input as a turn child of several steps sends it (issue 33): its session and
 * context by the key of the child's stored step inputs (core/stepStatics.ts, `describeWith`).
 */
export type RunToolUseByRef = Omit<RunToolUseInput, 'session' | 'context' | 'block'> & { stepRef: string } & (
    | { block: ToolUseBlock }
    /**
     * The block by its id in `messageRef` (the model call's stored message, or the node of a block
     * handed over while it streamed): history holds it once already, in the model call's result or
     * the streamedToolUse signal (issue 33).
     */
    | { toolUseId: string; messageRef: string }
    /** `stepRef` names the model call's answer (core/stepStatics.ts StepAnswer): its node and read files are there. */
    | { toolUseId: string; messageRef?: undefined }
  );

/** The Agent call's post-call phase: the pre phase's state, the child's output and its transcript head. */
export type FinishSubagentInput = RunToolUseInput & {
  resume: SubagentResume;
  output: SubagentOutput;
  childHead?: string | null;
};
