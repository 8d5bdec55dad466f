// What one tool_use resolved to, as data: the unit of the ledger (invariant 5), of the audit
// trail, and of the tool_result message sent back to the model (invariant 1).
import type { ModelUsage } from './modelUsage';
import type { ContextModifier } from './context';
import type { Message, ToolResultBlockParam, ToolUseBlock, UserMessage } from './apiMessages';

export type ToolCallStatus = 'ok' | 'error' | 'denied' | 'interrupted' | 'unknown_outcome';

/** Who or what decided that a call may (or may not) run. */
export interface DecisionRecord {
  behavior: 'allow' | 'ask' | 'deny';
  /** rule | mode | hook | tool | workingDirectory | human | timeout | other */
  source: string;
  /** The rule text, the mode name, the hook command, the approver's identity… */
  detail?: string;
  by?: string;
  reason?: string;
}

export interface ToolCallRecord {
  toolUseId: string;
  toolName: string;
  input: unknown;
  summary: string;
  status: ToolCallStatus;
  result: ToolResultBlockParam;
  contextModifiers: ContextModifier[];
  newMessages?: Message[];
  decision?: DecisionRecord;
  /** How many times call() may have started for this id (activity attempts). */
  attempts?: number;
  startedAt?: number;
  endedAt?: number;
  /** Where an oversized result was stored whole. */
  persistedTo?: string;
  /**
   * Set when the tool activity stored the whole result block (payloads by reference): `result`
   * then holds only a preview, and the transcript gets the stored block.
   */
  resultRef?: string;
  /** Length of the whole result's text when `result` is a preview. */
  resultChars?: number;
  /** True when this record came from the ledger instead of a new execution. */
  reused?: boolean;
  /** True when the call started while the model's message still streamed (core/streaming.ts). */
  early?: boolean;
  /**
   * What went wrong around the call without failing it (a large result that could not be
   * stored and was kept inline, a hook that errored): kept for the audit and the worker log.
   */
  notices?: string[];
  /** The hooks that ran around this call (outputs left out: the audit keeps who ran and how it ended). */
  hooks?: HookRunSummary[];
  /** A hook answered `continue: false`: the session stops after this turn. */
  stop?: { reason: string; hook: string };
  /** How the call was contained (Bash): sandboxed or not, why, and what the sandbox blocked. */
  sandbox?: SandboxRecord;
  /** What a web tool reached (WebFetch: every connection with its address, status and bytes). */
  network?: NetworkRecord;
  /**
   * The session's control files (its protected paths) that changed while the call ran — by the
   * tool, its hooks or anything it started (src/permissions/controlWrites.ts). At most
   * MAX_CONTROL_WRITES entries; a notice says how many more.
   */
  controlWrites?: ControlWrite[];
  /**
   * What model calls the call made cost, by model (core/modelUsage.ts): a web tool's side call, an
   * Agent call's whole child session. Absent: none (or recorded before it existed).
   */
  modelUsage?: ModelUsage;
}

/** A control file created, modified or deleted while a call ran (absolute path). */
export interface ControlWrite {
  path: string;
  change: 'created' | 'modified' | 'deleted';
}

/** How many control writes one record lists (the record travels through history: invariant 11). */
export const MAX_CONTROL_WRITES = 20;

/** The network side of a call, for the audit: the URL asked for and each connection made. */
export interface NetworkRecord {
  url: string;
  /** Every HTTP request, redirects within the site included (at most 11). */
  requests: Array<{ url: string; address: string; status: number; bytes: number }>;
  /** Body bytes received in all. */
  bytes: number;
  /** A redirect to another host, reported to the model and not followed. */
  redirectedTo?: string;
}

export interface SandboxRecord {
  sandboxed: boolean;
  /** Why it ran (or did not run) in the sandbox, e.g. `"docker" is in sandbox.excludedCommands`. */
  reason: string;
  /** Violations the sandbox reported for this call (denied hosts, denied operations): the first 100 distinct lines. */
  violations?: string[];
  /** How many reports there were in all, when more than the lines listed (repeats, or past the first 100). */
  violationCount?: number;
}

/** How many violations the sandbox reported for a call (also those its list leaves out). */
export function violationTotal(s: SandboxRecord | undefined): number {
  return s?.violationCount ?? s?.violations?.length ?? 0;
}

export interface HookRunSummary {
  event: string;
  hook: string;
  outcome: string;
  exitCode?: number | null;
  durationMs: number;
  reason?: string;
  /** Where a command hook ran: the session's sandbox or the host, why, and what the sandbox refused it. */
  sandbox?: { sandboxed: boolean; reason: string; violations?: string[] };
}

export const INTERRUPT_MESSAGE =
  'Interrupted by user: the tool call was stopped before it completed, and its result is unknown or partial.';
export const NOT_STARTED_INTERRUPT_MESSAGE = 'Interrupted by user: this tool call was not started.';
export const REJECT_MESSAGE =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).";

export function errorResult(toolUseId: string, content: string): ToolResultBlockParam {
  return { type: 'tool_result', tool_use_id: toolUseId, content, is_error: true };
}

/** A record for a call that never produced a result of its own (interrupted, internal failure). */
export function syntheticRecord(
  block: ToolUseBlock,
  status: ToolCallStatus,
  message: string,
  summary = block.name,
): ToolCallRecord {
  return {
    toolUseId: block.id,
    toolName: block.name,
    input: block.input,
    summary,
    status,
    result: errorResult(block.id, message),
    contextModifiers: [],
  };
}

export function interruptedRecord(block: ToolUseBlock, started: boolean, summary?: string): ToolCallRecord {
  return syntheticRecord(block, 'interrupted', started ? INTERRUPT_MESSAGE : NOT_STARTED_INTERRUPT_MESSAGE, summary);
}

/**
 * The user message that answers an assistant message: one tool_result per tool_use, in the
 * order of the tool_use blocks, whatever order the calls finished in.
 */
export function toolResultsMessage(
  blocks: readonly ToolUseBlock[],
  records: ReadonlyMap<string, ToolCallRecord>,
): UserMessage {
  return {
    role: 'user',
    content: blocks.map((b) => records.get(b.id)?.result ?? errorResult(b.id, NOT_STARTED_INTERRUPT_MESSAGE)),
  };
}

/** Every tool_use id in `blocks` without a record: must be empty when a turn ends. */
export function danglingToolUses(
  blocks: readonly ToolUseBlock[],
  records: ReadonlyMap<string, ToolCallRecord>,
): string[] {
  return blocks.filter((b) => !records.has(b.id)).map((b) => b.id);
}
