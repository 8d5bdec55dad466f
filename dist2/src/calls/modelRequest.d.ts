import type Anthropic from '@anthropic-ai/sdk';
import { type ContextSettings } from '../engine/contextWindow';
import { type RequestTool } from '../tools/toolSearch';
import { type ContextView } from '../engine/contextView';
import type { Message } from '../engine/messages';
import type { TranscriptStore } from '../stores/messageStore';
import type { CallModelInput } from './model';
export interface RequestSettings {
    model: string;
    maxTokens: number;
    system?: string;
    temperature?: number;
}
export interface RequestDeps {
    transcripts: TranscriptStore;
    toolDefinitions: (toolNames: string[], denyRules?: string[], mcp?: CallModelInput['mcp'], warn?: (message: string) => void) => Promise<RequestTool[]>;
    /** Where a session's stored tool results live (`<dir>/<tool_use_id>.txt`); cleared results are kept there. */
    resultPath?: (sessionId: string, toolUseId: string) => string;
}
export interface PreparedRequest {
    kind: 'request';
    params: Anthropic.MessageCreateParamsNonStreaming;
    betas: string[];
    view: ContextView;
    /** Messages in the full transcript (the baseline after the answer is this + 1). */
    transcriptLength: number;
    tokens: number;
    breakpoints: string[];
}
export interface NeedsCompaction {
    kind: 'compact';
    trigger: 'auto';
    tokens: number;
    view: ContextView;
}
export interface LoadedContext {
    full: Message[];
    summary: Message[];
    /** The request's tools: with tool search on, the up-front ones and the loaded deferred ones (`defer_loading`). */
    tools: RequestTool[];
    /** The system prompt as sent (with tool search on, the deferred tools' names after it). */
    system?: string;
    /** The model's view as sent (with tool search on, `Tool loaded.` after the results that loaded tools). */
    shape: (messages: Message[]) => Message[];
    /** Estimated tokens of the system prompt and tools (in every request). */
    fixedTokens: number;
    locate: (toolUseId: string) => string | undefined;
}
export declare function loadContext(deps: RequestDeps, input: {
    sessionId: string;
    head: string | null;
    view: ContextView;
    settings: RequestSettings;
    toolNames: string[];
    denyRules?: string[];
    mcp?: CallModelInput['mcp'];
    agents?: CallModelInput['agents'];
    contextSettings?: ContextSettings;
    warn?: (message: string) => void;
}): Promise<LoadedContext>;
/**
 * The request for this turn, or "compact first". Old tool results are cleared here (a pure plan,
 * stored results) once the clearing threshold is passed; above the auto-compact threshold the
 * answer is `compact` unless `autoCompact` is off.
 */
export declare function prepareModelRequest(deps: RequestDeps, input: {
    sessionId: string;
    head: string | null;
    view?: ContextView;
    settings: RequestSettings;
    toolNames: string[];
    denyRules?: string[];
    contextSettings?: ContextSettings;
    autoCompact?: boolean;
    mcp?: CallModelInput['mcp'];
    warn?: (message: string) => void;
}): Promise<PreparedRequest | NeedsCompaction>;
