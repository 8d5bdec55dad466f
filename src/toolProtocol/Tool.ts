// The Tool protocol: what a tool declares (schema, safety, permissions) and does (call, map).
// No Temporal here: the pipeline (src/toolCall/pipeline) runs tools, activities wrap the pipeline.
import type { BilledUsage } from '../core/prices';
import type { z } from 'zod';
import type { AgentContext, ContextModifier } from '../core/context';
import type { Message, ToolResultBlockParam } from '../core/apiMessages';
import type { NetworkRecord, SandboxRecord } from '../core/toolRecords';
import type { PermissionMode, ToolPermissionContext } from './permissionTypes';
import type { AgentDefinition } from '../agents/definitions';
import type { SkillDefinition } from '../agents/skills';
import type { SubagentOutput } from '../core/subagents';
import type { SandboxHost } from '../sandbox/host';

/**
 * A refused input. The model gets the message in the reference's `<tool_use_error>` tags, as every
 * input error; `untagged`: the message alone, for a check the reference makes in call() (whose
 * errors it sends without tags) but we make before the hooks (e.g. Read of a missing file).
 */
export type ValidationResult =
  { result: true } | { result: false; message: string; errorCode?: number; untagged?: boolean };

/** Why a permission decision came out as it did: kept for the audit trail. */
export type DecisionReason =
  | { type: 'rule'; rule: string; behavior: 'allow' | 'ask' | 'deny' }
  | { type: 'mode'; mode: PermissionMode }
  | { type: 'hook'; hook: string; reason?: string }
  | { type: 'tool'; reason: string }
  | { type: 'workingDirectory'; path: string }
  | { type: 'human'; decision: 'approve' | 'deny'; by?: string; reason?: string }
  | { type: 'timeout'; afterMs: number }
  /** The OS sandbox decided: a sandboxed call allowed (autoAllowBashIfSandboxed), or one leaving it that must ask. */
  | {
      type: 'sandbox';
      reason: string;
      /** The model asked to leave the sandbox (dangerouslyDisableSandbox), not the user's settings. */ requested?: boolean;
    }
  /** A write to a protected path (src/permissions/protectedPaths.ts): settings, hooks, `.git`, shell start-up files… */
  | { type: 'safetyCheck'; path: string; reason: string }
  | { type: 'other'; reason: string };

export type PermissionResult =
  | { behavior: 'allow'; updatedInput?: unknown; decisionReason?: DecisionReason }
  | { behavior: 'ask'; message: string; decisionReason?: DecisionReason }
  | { behavior: 'deny'; message: string; decisionReason?: DecisionReason }
  /** The tool has no opinion: rules and mode decide. */
  | { behavior: 'passthrough'; message?: string };

export interface ToolProgress {
  /** Free-form progress data (e.g. Bash output so far). Serialisable. */
  [key: string]: unknown;
}

export type OnProgress = (progress: ToolProgress) => void;

/** Where large results go (invariant 7). Keyed by tool_use_id; default a local directory. */
export interface ResultStore {
  /** Stores `content` whole; returns a location the model can Read (usually an absolute path). */
  put(toolUseId: string, content: string): Promise<string>;
  /**
   * A store shared by several hosts: is `path` this session's result at this worker's own path of it,
   * missing here and kept in the store (Read's validateInput asks; writes nothing)?
   */
  stored?(path: string): Promise<boolean>;
  /** Recreates such a result at this worker's own path of it (Read, after its permission decision); true when it did. */
  materialize?(path: string): Promise<boolean>;
}

/** A model request a tool makes itself (WebFetch's reading of a page, WebSearch's server-side search). */
export interface SideModelRequest {
  /** Why, for logs and the fake API's scripts: `web_fetch`, `web_search`. */
  purpose: string;
  system?: string;
  messages: Array<{ role: 'user' | 'assistant'; content: string | Array<Record<string, unknown>> }>;
  maxTokens: number;
  /** API tools as sent (server tools such as `{ type: 'web_search_20250305', … }`). */
  tools?: Array<Record<string, unknown>>;
  toolChoice?: Record<string, unknown>;
}

export interface SideModelResponse {
  /** The response's content blocks as the API sent them (text, server_tool_use, web_search_tool_result…). */
  content: Array<Record<string, unknown>>;
  stopReason?: string | null;
  model?: string;
  /** The usage the API reported (the runner counts and prices it: core/modelUsage.ts). */
  usage?: BilledUsage;
}

/**
 * The worker's model access for tools: the session's Anthropic client and configuration (base URL,
 * key), with the small, fast model the reference uses for such calls.
 */
export interface SideModel {
  readonly model: string;
  create(request: SideModelRequest, signal: AbortSignal): Promise<SideModelResponse>;
}

/** What a tool's call() sees. Everything but the abort signal and the store is plain data. */
export interface ToolUseContext {
  sessionId: string;
  toolUseId: string;
  /** Stable across retries and replays: `<session-id>/<tool_use_id>`; pass it to external APIs. */
  idempotencyKey: string;
  agent: AgentContext;
  permission: ToolPermissionContext;
  abortSignal: AbortSignal;
  resultStore?: ResultStore;
  /**
   * The worker's own state (its store, data directory, the Temporal server's database): sandboxed
   * commands may neither read nor write it. Set by the worker; absent outside one.
   */
  privatePaths?: readonly string[];
  /**
   * Bash's OS sandbox on this host, owned by the worker (or the in-process runner) that runs the
   * call. Absent: a call the session's settings would sandbox does not run.
   */
  sandboxHost?: SandboxHost;
  /** The agent types the session offers (the Agent tool validates `subagent_type` against them). */
  agents?: readonly AgentDefinition[];
  /** The session's skills (the Skill tool loads them), read at the session's start. */
  skills?: readonly SkillDefinition[];
  /**
   * A PostToolUse hook will receive this call's tool_response: tools that change a file then add
   * what the reference reports to hooks (the content before the change and the diff hunks).
   */
  fileChangeForHooks?: boolean;
  /**
   * The forms of getPath() (logical, real, physical) the permission decision checked, set by the
   * pipeline before call(): the file tools bind what they open to them (src/files/safeFs.ts).
   */
  permittedPaths?: readonly string[];
  /** Model calls a tool makes itself (WebFetch, WebSearch); absent outside a worker. */
  sideModel?: SideModel;
  /**
   * The session's tool pool (ToolSearch searches its deferred tools; MCP tools are in it when the
   * call is ToolSearch's or an MCP tool's).
   */
  pool?: readonly AnyTool[];
  /**
   * The scheduler runs background tasks (Bash `run_in_background`, Monitor): the session workflow
   * and the in-process runner do; absent (a bare pipeline call) they are refused with a clear error.
   */
  backgroundTasks?: boolean;
  /** The scheduler runs Monitor tasks too (false: the in-process runner, which runs none yet; Monitor is refused). */
  monitorTasks?: boolean;
  /** Runs a subagent as a child session (the in-process runner); absent where the scheduler does it itself. */
  runSubagent?: (
    input: {
      description: string;
      prompt: string;
      subagent_type?: string | undefined;
      model?: string | undefined;
      run_in_background?: boolean | undefined;
    },
    ctx: ToolUseContext,
  ) => Promise<SubagentRun>;
}

/**
 * What `runSubagent` returns: the child's report (foreground), or the launched result and the
 * `local_agent` task's `taskStarted` modifier (background: the runner's task scheduler runs the child).
 */
export interface SubagentRun {
  data: SubagentOutput;
  contextModifiers?: ContextModifier[];
}

export interface ToolResult<Out> {
  data: Out;
  contextModifiers?: ContextModifier[];
  newMessages?: Message[];
  /** How the call was contained (Bash): the pipeline carries it into the record and the audit. */
  sandbox?: SandboxRecord;
  /** What a web tool reached: the pipeline carries it into the record and the audit. */
  network?: NetworkRecord;
}

export interface Tool<Input = any, Output = any> {
  readonly name: string;
  readonly aliases?: readonly string[];
  /**
   * Permission rules written for this other tool also apply to this one's calls (Monitor: `Bash(…)`
   * rules match its command, and its command is analysed as Bash's is). Its own name's rules apply too.
   */
  readonly rulesAs?: 'Bash';
  readonly inputSchema: z.ZodType<Input>;
  /** The API `input_schema` as given (MCP tools: the server's JSON Schema); default: from `inputSchema`. */
  readonly inputJSONSchema?: Record<string, unknown>;
  /** Above this many characters the mapped result is stored whole and replaced by a preview. */
  readonly maxResultSizeChars: number;
  /** The description the model sees. */
  prompt(): string | Promise<string>;
  /**
   * With tool search on, the model gets only this tool's name until ToolSearch loads it (every MCP
   * tool; the built-ins the reference defers). Default false: the schema is sent up front.
   */
  readonly shouldDefer?: boolean;
  /** One line for UIs and the audit trail, e.g. `Grep "login|auth" in src/remote`. */
  summary(input: Input): string;
  isEnabled(): boolean;
  isConcurrencySafe(input: Input): boolean;
  isReadOnly(input: Input): boolean;
  /** May this call be re-run after a lost worker? Default: only when read-only. */
  isIdempotent(input: Input): boolean;
  validateInput?(input: Input, ctx: ToolUseContext): Promise<ValidationResult>;
  checkPermissions(input: Input, ctx: ToolUseContext): Promise<PermissionResult>;
  /** The path (absolute or relative to cwd) this call touches, for path permission rules. */
  getPath?(input: Input): string | undefined;
  /** Content string matched by `Tool(spec)` rules for non-path tools (e.g. Bash's command). */
  getRuleContent?(input: Input): string | undefined;
  /**
   * The input as hooks see it (`tool_input`), the reference's "observable input": paths made
   * absolute, defaults filled in. The call itself and the transcript keep the input as given.
   * Default: the input unchanged.
   */
  observableInput?(input: Input, cwd: string): unknown;
  call(input: Input, ctx: ToolUseContext, onProgress: OnProgress): Promise<ToolResult<Output>>;
  mapToolResultToToolResultBlockParam(data: Output, toolUseId: string): ToolResultBlockParam;
}

/** What a tool author writes: the required parts; everything else gets a safe default. */
export type ToolDef<Input, Output> = Omit<
  Tool<Input, Output>,
  | 'isEnabled'
  | 'isConcurrencySafe'
  | 'isReadOnly'
  | 'isIdempotent'
  | 'checkPermissions'
  | 'summary'
  | 'maxResultSizeChars'
> &
  Partial<
    Pick<
      Tool<Input, Output>,
      | 'isEnabled'
      | 'isConcurrencySafe'
      | 'isReadOnly'
      | 'isIdempotent'
      | 'checkPermissions'
      | 'summary'
      | 'maxResultSizeChars'
    >
  >;

export const DEFAULT_MAX_RESULT_SIZE_CHARS = 100_000;

/**
 * Builds a tool with safe defaults: not concurrency-safe, not read-only, not idempotent unless
 * read-only, permissions decided by rules and mode, enabled.
 */
export function buildTool<Input, Output>(def: ToolDef<Input, Output>): Tool<Input, Output> {
  const tool: Tool<Input, Output> = {
    maxResultSizeChars: DEFAULT_MAX_RESULT_SIZE_CHARS,
    isEnabled: () => true,
    isConcurrencySafe: () => false,
    isReadOnly: () => false,
    isIdempotent: (input: Input) => tool.isReadOnly(input),
    checkPermissions: async () => ({ behavior: 'passthrough' }),
    summary: (input: Input) => `${def.name} ${safeJson(input, 80)}`,
    ...def,
  };
  return tool;
}

function safeJson(value: unknown, max: number): string {
  let s: string;
  try {
    s = JSON.stringify(value) ?? String(value);
  } catch {
    s = String(value);
  }
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

export type AnyTool = Tool<any, any>;
