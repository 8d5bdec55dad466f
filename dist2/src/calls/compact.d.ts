import { type ContextSettings } from '../engine/contextWindow';
import { type CompactionRecord, type ContextView } from '../engine/contextView';
import type { Usage } from '../engine/messages';
import { type HookRun, type HooksConfig } from '../hooks';
import { type CallModelInput, type ModelDeps, type ModelSettings } from './model';
import type { CallRuntime } from './runtime';
export interface CompactContextInput {
    sessionId: string;
    turn: number;
    /** The session's compaction number (activity id `compact-<n>`). */
    n: number;
    trigger: 'auto' | 'reactive' | 'manual';
    /** > 0: an earlier compaction in this step did not make the prompt fit: keep no recent messages. */
    attempt: number;
    /** Head of the full transcript, including this turn's new messages. */
    head: string | null;
    view: ContextView;
    tokensBefore: number;
    settings: ModelSettings;
    toolNames: string[];
    denyRules?: string[];
    contextSettings?: ContextSettings;
    /** The session's hooks (reference JSON format). */
    hooks?: unknown;
    /** The session's MCP servers: their tools are offered in the summarizing request too (same prefix, and the messages use them). */
    mcp?: CallModelInput['mcp'];
    cwd: string;
}
export type CompactContextResult = {
    kind: 'compacted';
    view: ContextView;
    record: CompactionRecord;
    usage: Usage;
    hookRuns: HookRun[];
    notices: string[];
} | {
    kind: 'blocked';
    reason: string;
    hookRuns: HookRun[];
};
export interface CompactDeps extends ModelDeps {
    /** Hooks the worker adds programmatically, merged with the session's. */
    hooks?: HooksConfig;
}
export declare function compactContextWith(deps: CompactDeps, input: CompactContextInput, ctx: CallRuntime): Promise<CompactContextResult>;
