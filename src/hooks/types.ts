// Hook configuration and wire shapes, in the reference agent's format.
import type { PermissionMode } from '../toolProtocol/permissionTypes';

/** Every event of the reference's hooks; a settings file naming any other fails at load. */
export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'Notification',
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/**
 * Events the current reference defines that durable-agent never fires: accepted at load with a
 * warning (a settings file written for the reference still loads), never run.
 */
export const REFERENCE_ONLY_HOOK_EVENTS = [
  'PostToolBatch',
  'UserPromptExpansion',
  'StopFailure',
  'PostCompact',
  'PermissionRequest',
  'PermissionDenied',
  'Setup',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'Elicitation',
  'ElicitationResult',
  'ConfigChange',
  'WorktreeCreate',
  'WorktreeRemove',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'MessageDisplay',
] as const;

/** Events whose hooks the session (not a tool call) runs, as `hook-<event>-<n>` activities. */
export const SESSION_HOOK_EVENTS = [
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'Notification',
] as const;
export type SessionHookEventName = (typeof SESSION_HOOK_EVENTS)[number];

/** Default timeout of a hook, in seconds (the reference's current default). */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 600;

export interface CommandHookDef {
  type: 'command';
  /**
   * Run with `sh -c` in the session's project root (its start directory, never the agent's current
   * cwd); the hook input arrives as JSON on stdin.
   */
  command: string;
  /** Seconds; default 600. At the timeout the hook's whole process group is killed. */
  timeout?: number;
  /** Exec form: `command` is the executable, run with these arguments and no shell. */
  args?: string[];
  /** A permission rule (`Bash(git *)`, `Edit(src/**)`): the hook runs only for calls it matches (tool events). */
  if?: string;
  /** `bash`: run with `bash -c` instead of `sh -c`. */
  shell?: 'bash';
  /** Runs in the background: nothing waits for it and its answer is ignored. */
  async?: boolean;
}

export interface HookFunctionOptions {
  /** Aborted at the hook's timeout or when the tool call is interrupted. */
  signal: AbortSignal;
}

export type HookFunction = (
  input: HookInput,
  options: HookFunctionOptions,
) => HookOutput | void | undefined | Promise<HookOutput | void | undefined>;

/** A programmatic hook: same input and output as a command hook. Throwing = non-blocking error. */
export interface FunctionHookDef {
  type: 'function';
  fn: HookFunction;
  /** Seconds; default 600. */
  timeout?: number;
  /** For notices and the audit trail (default: the function's name). */
  name?: string;
}

export type HookDef = CommandHookDef | FunctionHookDef;

export interface HookMatcherConfig {
  /**
   * Which tools: `Edit|Write` (a list of names), `*` or empty/absent (all), or a regular
   * expression searched in the tool name, unanchored as the reference (`mcp__.*`; `^Bash$` for the whole name). Case-sensitive.
   */
  matcher?: string;
  hooks: HookDef[];
}

/** `{ PreToolUse: [...], PostToolUse: [...] }` — the value of a settings file's `hooks` key. */
export type HooksConfig = { [E in HookEventName]?: HookMatcherConfig[] };

/** A whole settings file: `{ "hooks": { ... } }`. */
export interface HooksSettings {
  hooks: HooksConfig;
}

/** What every hook receives (the reference's common input fields). */
export interface CommonHookInput {
  session_id: string;
  /** A JSONL file of the conversation so far, in the reference's transcript format. */
  transcript_path?: string;
  cwd: string;
  permission_mode: PermissionMode;
}

/** Inside a subagent every hook input carries the parent's session_id and the agent (as the reference). */
export interface AgentHookFields {
  session_id: string;
  /** The subagent's session id (`<session>/agent-<tool_use_id>`). */
  agent_id: string;
  agent_type: string;
}

interface HookInputBase extends CommonHookInput {
  tool_name: string;
  tool_input: unknown;
  tool_use_id: string;
}

export interface PreToolUseHookInput extends HookInputBase {
  hook_event_name: 'PreToolUse';
}

export interface PostToolUseHookInput extends HookInputBase {
  hook_event_name: 'PostToolUse';
  /** What the tool's call() returned (its own data, not the API block; Bash in the reference's shape). */
  tool_response: unknown;
  duration_ms?: number;
}

/** After a call that failed (it threw, or its result is an error): instead of PostToolUse. */
export interface PostToolUseFailureHookInput extends HookInputBase {
  hook_event_name: 'PostToolUseFailure';
  /** The error as the model sees it. */
  error: string;
  is_interrupt: boolean;
  duration_ms?: number;
}

/** Before a compaction; the matcher selects the trigger (`auto` or `manual`). */
export interface PreCompactHookInput {
  hook_event_name: 'PreCompact';
  session_id: string;
  transcript_path?: string;
  cwd: string;
  permission_mode?: PermissionMode;
  trigger: 'auto' | 'manual';
  custom_instructions: string | null;
}

/** The session-level events: common fields plus the event's own (prompt, stop_hook_active, source, reason, message). */
export interface SessionHookInput extends CommonHookInput {
  hook_event_name: SessionHookEventName;
  [field: string]: unknown;
}

export type HookInput =
  PreToolUseHookInput | PostToolUseHookInput | PostToolUseFailureHookInput | PreCompactHookInput | SessionHookInput;

/** What a hook may print on stdout (exit 0) or a function hook may return. All optional. */
export interface HookOutput {
  /** false: the agent should stop after this (the tool does not run, for PreToolUse). */
  continue?: boolean;
  stopReason?: string;
  suppressOutput?: boolean;
  /** A message for the user (recorded as a notice). */
  systemMessage?: string;
  /** `block` (PreToolUse: the call does not run; PostToolUse: feedback to the model); `approve` = legacy allow. */
  decision?: 'block' | 'approve';
  reason?: string;
  hookSpecificOutput?: {
    hookEventName?: HookEventName | string;
    permissionDecision?: 'allow' | 'deny' | 'ask';
    permissionDecisionReason?: string;
    /** PreToolUse: replaces the tool input (validated again against the tool's schema). */
    updatedInput?: Record<string, unknown>;
    additionalContext?: string;
  };
}

export type HookOutcome = 'success' | 'blocking' | 'non_blocking_error' | 'timeout' | 'cancelled';

/** One hook execution, for the audit trail. */
export interface HookRun {
  event: HookEventName;
  /** The command (or the function hook's name). */
  hook: string;
  outcome: HookOutcome;
  exitCode?: number | null;
  stdout?: string;
  stderr?: string;
  /** Parsed JSON output, when there was one. */
  output?: HookOutput;
  durationMs: number;
  error?: string;
  /** An `async` hook: started in the background, its outcome not read. */
  async?: true;
  /**
   * The hook was not run: these files it runs changed since the session started (src/hooks/pins.ts).
   * The outcome is `non_blocking_error`; a PreToolUse hook refused so blocks its call.
   */
  pinChanged?: string[];
  /**
   * Where a command hook ran (docs/hooks.md "Where hooks run"): in the session's OS sandbox or on
   * the host, and why; what the sandbox refused it (`violations`, also at the end of its stderr);
   * protected paths it wrote anyway, undone. `refused`: the hook was not run because it could not be
   * sandboxed (no sandbox host, or the sandbox unavailable with `failIfUnavailable`): a PreToolUse
   * hook refused so blocks its call.
   */
  sandbox?: HookSandboxRecord;
}

export interface HookSandboxRecord {
  sandboxed: boolean;
  reason: string;
  violations?: string[];
  protectedUndone?: string[];
  refused?: true;
}
