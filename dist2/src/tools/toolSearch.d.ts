import type { Message } from '../engine/messages';
export declare const TOOL_SEARCH_TOOL_NAME = "ToolSearch";
/** A deferred stand-in sent from the first request on, so that the set of deferred tools is never empty. */
export declare const DEFERRED_PLACEHOLDER_NAME = "DeferredToolPlaceholder";
/** The text after the tool results that loaded tools (one per such result), as the reference sends it. */
export declare const TOOL_LOADED_TEXT = "Tool loaded.";
export declare const NO_MATCH_TEXT = "No matching deferred tools found";
export declare const DEFAULT_MAX_RESULTS = 5;
/** `on`: always defer; `off`: every schema up front, no ToolSearch; `auto`: defer when the deferrable schemas pass `toolSearchPct` of the window. */
export type ToolSearchMode = 'on' | 'off' | 'auto';
/** The reference's auto threshold: deferrable tools' tokens ≥ 10% of the model's context window. */
export declare const DEFAULT_TOOL_SEARCH_PCT = 10;
/** A tool as ToolSearch sees it: its name, its description, and whether it is deferred. */
export interface SearchableTool {
    name: string;
    description: string;
}
/** The tool names of every tool_reference block in the messages, in order of first appearance. */
export declare function referencedToolNames(messages: readonly Message[]): string[];
/** Did the model ever call ToolSearch in this conversation (auto mode then stays on)? */
export declare function usedToolSearch(messages: readonly Message[]): boolean;
/**
 * What a ToolSearch query finds, as tool names (the reference's algorithm):
 * - `select:A,B` loads those tools by name (any tool of the session, exact or ignoring case; unknown names are skipped);
 * - a query that is a tool's name finds that tool;
 * - `mcp__server…` finds the deferred tools whose names start with it;
 * - else keywords, scored against each deferred tool's name parts and description (a `+word` must match),
 *   best first, at most `maxResults`.
 */
export declare function searchTools(query: string, opts: {
    deferred: readonly SearchableTool[];
    all: readonly SearchableTool[];
    maxResults?: number;
}): string[];
/** A tool definition as a model request carries it; `deferrable` is ours (never sent). */
export interface RequestTool {
    name: string;
    description: string;
    input_schema: Record<string, unknown>;
    deferrable?: boolean;
    defer_loading?: boolean;
}
export interface DeferralSettings {
    mode: ToolSearchMode;
    /** auto: defer once the deferrable tools' estimated tokens reach this % of `window`. */
    pct: number;
    window: number;
    /** Estimated tokens of a value (the engine's estimate). */
    estimate: (value: unknown) => number;
}
export interface DeferredRequest {
    /** The request's tools: the up-front ones, then the placeholder and the loaded deferred ones. */
    tools: RequestTool[];
    /** Tool search is on for this request (ToolSearch offered, deferred tools named in `note`). */
    active: boolean;
    /** The names of every deferred tool, one per line, with how to load them (for the system prompt). */
    note?: string;
    /** The messages as sent: `Tool loaded.` after results that loaded tools; a reference to a tool this request lacks becomes text. */
    shape: (messages: readonly Message[]) => Message[];
}
/**
 * The request's tools when the session offers ToolSearch. Deferred: every `deferrable` tool (MCP
 * tools, the built-ins the reference defers). Loaded: those a tool_reference in the transcript
 * names (`full`, the whole transcript: a compaction does not unload them). A loaded tool whose
 * reference the model still sees goes with `defer_loading: true` (the API expands it there); one
 * whose reference was summarised away is sent whole, so its schema stays in the prompt.
 */
export declare function deferTools(defined: readonly RequestTool[], full: readonly Message[], view: readonly Message[], s: DeferralSettings): DeferredRequest;
/**
 * The view as sent: after the tool results of a user message that loaded tools, one `Tool loaded.`
 * text per such result (the reference's wire shape); a tool_reference to a tool the request does not
 * carry (an MCP server gone, tool search off) becomes a text saying so (the API refuses it otherwise).
 */
export declare function shapeMessages(messages: readonly Message[], offered: ReadonlySet<string>): Message[];
