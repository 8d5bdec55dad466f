import { DurableAgentError } from './engine/errors';
import type { SessionInput } from './workflows/definitions';
import type { SandboxSettings } from './sandbox/settings';
import type { ContextSettings } from './engine/contextWindow';
/** A session input refused before the session started: nothing was started. */
export declare class InvalidSessionInputError extends DurableAgentError {
    readonly problems: string[];
    constructor(problems: string[]);
}
/** Every problem of a session input as readable strings (empty when it may start). */
export declare function sessionInputProblems(input: unknown): string[];
/** Throws InvalidSessionInputError naming every problem; returns the input when it may start. */
export declare function checkSessionInput<T extends SessionInput>(input: T): T;
/** The tools a session gets by default: the file and shell tools, NotebookEdit, the web tools, Agent (subagents as child sessions), the worktree and schedule tools, Monitor and TaskStop. */
export declare const BUILTIN_TOOL_NAMES: string[];
export declare const DEFAULT_MODEL = "claude-sonnet-5-5";
export interface SessionOptions extends Partial<Omit<SessionInput, 'prompt' | 'model'>> {
    prompt: string;
    model?: Partial<SessionInput['model']>;
    /** Text added after the system prompt (the default one, or model.system). */
    appendSystemPrompt?: string;
}
/**
 * The default system prompt: what the model needs to know to work as a coding agent here.
 * `model.system` replaces it; `appendSystemPrompt` adds to it.
 */
export declare function defaultSystemPrompt(cwd: string, additionalDirectories?: readonly string[]): string;
/**
 * The longest prompt or follow-up message, in characters. A user message travels inline through
 * the session's start (or signal) event and the turn that sends it (tool inputs and results travel
 * by reference): this keeps every such event well below Temporal's payload limits.
 */
export declare const MAX_MESSAGE_CHARS: number;
export declare function checkMessageSize(what: string, text: string): void;
/** `permissions.disableBypassPermissionsMode: "disable"` and a bypassPermissions session. */
export declare class BypassDisabledError extends DurableAgentError {
    constructor();
}
/**
 * The session's sandbox settings with the paths of its Read/Edit rules merged in, as the reference
 * does (Read deny → denyRead, Edit deny → denyWrite, Edit allow → allowWrite).
 */
export declare function sessionSandbox(sandbox: SandboxSettings | undefined, rules: SessionInput['rules'], cwd: string): SandboxSettings;
/**
 * ENABLE_TOOL_SEARCH as the reference reads it: `true` (always defer), `false` (never), `auto`
 * (defer when the deferrable tools' schemas reach 10% of the window), `auto:N` (N%; 0 is `true`, 100
 * is `false`). Unset: `auto` — the reference's default is `true`; ours defers only when it pays
 * (docs/tools.md "Deferred tools and ToolSearch"). Anything else is an error naming the variable.
 */
export declare function toolSearchFromEnv(value: string | undefined): Pick<ContextSettings, 'toolSearch' | 'toolSearchPct'>;
/**
 * Context management from the reference's env vars (DISABLE_AUTO_COMPACT, DISABLE_COMPACT,
 * CLAUDE_AUTOCOMPACT_PCT_OVERRIDE, CLAUDE_CODE_AUTO_COMPACT_WINDOW, CLAUDE_CODE_DISABLE_1M_CONTEXT,
 * DISABLE_PROMPT_CACHING); an explicit setting beats the env var, key by key.
 */
export declare function contextSettings(explicit?: ContextSettings, env?: NodeJS.ProcessEnv): ContextSettings;
/** Fills defaults: every option documents its env var; an explicit option beats it. */
export declare function sessionInput(opts: SessionOptions): SessionInput;
/**
 * A session that offers the Agent tool carries its agent types: general-purpose plus the agent
 * files (~/.claude/agents, .claude/agents), read once at start. A malformed file throws
 * AgentDefinitionError naming the file and the key: the session is not started.
 */
export declare function withAgents(input: SessionInput): Promise<SessionInput>;
