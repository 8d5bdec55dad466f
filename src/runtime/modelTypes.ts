// The shapes of one model call: its input, its outcome (an answer or a compaction to do first), what
// an abandoned stream left (tombstones), and what the call needs from its runner (ModelDeps).
import type { BudgetLink } from '../core/budget';
import type { McpSessionListing } from '../mcp/sandboxed';

import type Anthropic from '@anthropic-ai/sdk';
import type { AgentDefinition } from '../agents/definitions';
import type {
  AssistantContentBlock,
  AssistantMessage,
  Message,
  StopDetails,
  ToolUseBlock,
  Usage,
} from '../core/apiMessages';
import type { ModelUsage } from '../core/modelUsage';
import type { TranscriptStore } from '../stores/messageStore';
import type { PayloadStore } from '../stores/payloadStore';
import type { ToolSettingsStore } from '../stores/toolSettingsStore';
import type { StepStaticsStore } from '../stores/stepStaticsStore';
import type { ContextSettings } from '../core/contextWindow';
import type { ContextView } from '../core/contextView';
import type { MemoryRef } from '../core/memoryReminder';
import type { ThinkingSetting } from '../core/thinking';
import type { ToolUseDescription } from '../core/toolCall';
import type { AgentContext } from '../core/context';
import type { ToolSessionInput } from '../toolCall/toolTypes';
import type { StepWritesWire } from '../core/modelStep';

/**
 * A session's MCP servers as a model call lists them: `cwd` is the session's root; with `sessionId`
 * (calls this release schedules) its stdio servers run in its sandbox (src/mcp/sandboxed.ts).
 */
export type SessionMcpListing = McpSessionListing;

export interface ModelSettings {
  model: string;
  maxTokens: number;
  system?: string;
  temperature?: number;
  /** Extended thinking (core/thinking.ts); absent in sessions started before it: none. */
  thinking?: ThinkingSetting;
}

export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  /** Deferred behind ToolSearch when tool search is on (MCP tools, some built-ins); never sent. */
  deferrable?: boolean;
}

export interface CallModelInput {
  sessionId: string;
  /** The tree's budget (core/budget.ts): checked before the call, the call's spend charged to the root after it. */
  budget?: BudgetLink;
  turn: number;
  /** Head of the transcript so far (null: empty). */
  head: string | null;
  /** New user-side messages to append before calling (prompt, follow-ups, tool results). */
  append: Message[];
  /** The session's memory by reference: its text goes before the first message's (payloads by reference). */
  memory?: MemoryRef;
  /** Without `system` when `settingsRef` is set (the stored settings hold it). */
  settings: ModelSettings;
  /** Absent when `settingsRef` is set (runtime/storedSettings.ts). */
  toolNames?: string[];
  /** The session's stored settings (issue 33): its system prompt, tool names and agent definitions. */
  settingsRef?: string;
  /** The session's deny rules: a tool denied outright is not offered to the model at all. */
  denyRules?: string[];
  /** The session's MCP servers: their tools are listed (tools/list, servers start on first use) and offered too. */
  mcp?: SessionMcpListing;
  /** The model's view of the transcript (compaction summary, cleared results); absent: the whole transcript. */
  view?: ContextView;
  contextSettings?: ContextSettings;
  /** false: send even above the auto-compact threshold (a PreCompact hook blocked compaction). */
  autoCompact?: boolean;
  /** The session's agent types: the Agent tool's description lists them. */
  agents?: AgentDefinition[];
  /** Hand each tool_use block to the turn as soon as it is complete (streaming tool execution). */
  streamToolUses?: boolean;
  /**
   * Describe the tool_use blocks here (safety, summary, `mayAsk`; the describeToolUses core) with
   * the turn's tool session and context: the descriptions ride with the streamed blocks (one signal
   * per run of blocks that completed together) and in the result, so the turn needs no describe
   * step of its own. Absent (a turn recorded before): blocks are signalled one by one, undescribed.
   */
  describeWith?: { session: ToolSessionInput; context: AgentContext };
  /**
   * The previous model step's end-of-step writes (a turn child of several steps, issue 33): made
   * before the call, which then starts from the appended head; the read-file state it stored is the
   * answer's `readFilesRef` and rides with the streamed blocks' signals.
   */
  stepWrites?: StepWritesWire;
  /**
   * The child's static step inputs by reference (core/stepStatics.ts, issue 33): with it the fields
   * of STEP_STATIC_FIELDS are absent here and read from the store. Absent: they are inline, and the
   * activity stores them and answers the key (`staticsRef`, also on its streamed signals).
   */
  staticsRef?: string;
}

/** The partial output of an abandoned streaming attempt: kept for the audit trail only. */
export interface Tombstone {
  attempt: number;
  error: string;
  partialContent: AssistantContentBlock[];
  eventsReceived: number;
}

export interface CallModelResult {
  kind?: 'message';
  /**
   * The assistant message as history carries it (engine/payloads `messageForHistory`): tool_use
   * ids and names whole, large inputs, text and thinking as previews. The whole message is the
   * transcript node `head`.
   */
  message: AssistantMessage;
  usage: Usage;
  /** This call's usage and cost by model (core/modelUsage.ts), priced when it answered; absent in results recorded before. */
  modelUsage?: ModelUsage;
  stopReason: string;
  /**
   * A refusal's `stop_details`. A refused answer is not the conversation's: `message` is empty,
   * `head` is `sentHead` (the API's guidance: reset the refused turn's context before going on),
   * and what the model had written is a tombstone (kept for the audit, never sent again).
   */
  stopDetails?: StopDetails;
  /** Head of the transcript including `append` and the assistant message. */
  head: string | null;
  /** Head including `append` only (what was sent). */
  sentHead: string | null;
  messageId: string;
  fallback: boolean;
  tombstones: Tombstone[];
  requestId?: string;
  /** How many times the API paused this turn (stop_reason pause_turn) and the call continued it; absent: none. */
  continuations?: number;
  /** The view after this call: its baseline is this answer's usage. */
  view: ContextView;
  /** Where the request's cache breakpoints went. */
  cacheBreakpoints?: string[];
  /**
   * With `describeWith`: the descriptions (each naming its block) of the tool_use blocks of
   * `message` that were not handed to the turn described while streaming. Absent: describing failed.
   */
  descriptions?: ToolUseDescription[];
  /** With `stepWrites` that held read files: the read-file state stored (the step's tool calls read it). */
  readFilesRef?: string | null;
  /** The key of the static inputs this call was sent inline, stored by it (core/stepStatics.ts). */
  staticsRef?: string;
  /**
   * The key of this answer's tool-call inputs (issue 33): the step's statics, this answer's node and
   * its `readFilesRef`, stored together — a tool call of the answer sends it and its tool_use id.
   */
  stepRef?: string;
}

/** The call was not made (auto) or the API refused the prompt as too long (reactive): compact, then call again. */
export interface CompactionNeeded {
  kind: 'compact';
  trigger: 'auto' | 'reactive';
  tokens: number;
  view: ContextView;
  /** Head including `append` (what compaction summarises). */
  sentHead: string | null;
  error?: string;
}

export type ModelCallOutcome = CallModelResult | CompactionNeeded;
export interface ModelDeps {
  transcripts: TranscriptStore;
  /** Where tool activities stored their result blocks (resolves the turn's appends by reference). */
  payloads?: PayloadStore;
  /** Creates the SDK client: real by default; tests point `baseURL` at the fake server. */
  anthropic: () => Anthropic;
  /** Tool definitions for the named tools of the session's pool. */
  toolDefinitions: (
    toolNames: string[],
    denyRules?: string[],
    mcp?: CallModelInput['mcp'],
    warn?: (message: string) => void,
  ) => Promise<ToolDefinition[]>;
  /** Disable the non-streamed fallback (the reference's CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK). */
  disableFallback?: boolean;
  /** Where a session's settings are stored once per run: a call given `settingsRef` reads its static settings there. */
  toolSettings?: ToolSettingsStore;
  /** Where a turn child's static step inputs are stored once (`staticsRef`, issue 33). */
  stepStatics?: StepStaticsStore;
  /** Where a session's stored tool results live; cleared old results are kept there for Read. */
  resultPath?: (sessionId: string, toolUseId: string) => string;
  /** The describeToolUses core (tool code), for `describeWith`; absent: blocks go undescribed. */
  describeToolUses?: (wire: {
    session: ToolSessionInput;
    blocks: ToolUseBlock[];
    messageRef: string | null;
    context: AgentContext;
  }) => Promise<ToolUseDescription[]>;
}
