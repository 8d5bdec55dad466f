import { type CompactionRecord, type ContextView } from './contextView';
import { type ContextSettings } from './contextWindow';
import type { MemoryRef } from './memory';
import type { Message, Usage } from './messages';
import { type CompactTrigger, type ModelStepResult } from './modelStep';
export interface ModelStepSettings {
    model: string;
    maxTokens: number;
    system?: string;
    temperature?: number;
}
/** What the step reads of a turn (the turn workflow's input has all of it). */
export interface ModelStepTurn<Agent, Mcp, Hooks> {
    sessionId: string;
    turn: number;
    head: string | null;
    append: Message[];
    memory?: MemoryRef;
    model: ModelStepSettings;
    tools: string[];
    rules: {
        deny: string[];
    };
    subagents?: {
        agents?: Agent[];
    };
    view?: ContextView;
    contextSettings?: ContextSettings;
    streamingToolExecution?: boolean;
    mcpServers?: Mcp;
    hooks?: Hooks;
    context: {
        cwd: string;
    };
}
/** The model call's input (the model activity's CallModelInput). */
export interface ModelCallArgs<Agent, Mcp> {
    sessionId: string;
    turn: number;
    head: string | null;
    append: Message[];
    memory?: MemoryRef;
    settings: ModelStepSettings;
    toolNames: string[];
    denyRules?: string[];
    agents?: Agent[];
    view?: ContextView;
    contextSettings?: ContextSettings;
    autoCompact?: boolean;
    streamToolUses?: boolean;
    mcp?: {
        servers: Mcp;
        cwd: string;
    };
}
/** The compaction's input (the compaction activity's CompactContextInput). */
export interface CompactArgs<Agent, Mcp, Hooks> {
    sessionId: string;
    turn: number;
    n: number;
    trigger: CompactTrigger;
    attempt: number;
    head: string | null;
    view: ContextView;
    tokensBefore: number;
    settings: ModelStepSettings;
    toolNames: string[];
    denyRules?: string[];
    agents?: Agent[];
    contextSettings?: ContextSettings;
    hooks?: Hooks;
    cwd: string;
    mcp?: {
        servers: Mcp;
        cwd: string;
    };
}
/** A model call's answer: a message (`R`), or the window is (nearly) full: compact first. */
export type ModelCallAnswer<R> = R | {
    kind: 'compact';
    trigger: CompactTrigger;
    tokens: number;
    view: ContextView;
    sentHead: string | null;
};
export type CompactAnswer = {
    kind: 'compacted';
    view: ContextView;
    record: CompactionRecord;
    usage: Usage;
} | {
    kind: 'blocked';
    reason: string;
};
export interface ModelStepRunners<Agent, Mcp, Hooks, R> {
    callModel(args: ModelCallArgs<Agent, Mcp>, activityId: string, summary: string): Promise<ModelCallAnswer<R>>;
    compact(args: CompactArgs<Agent, Mcp, Hooks>, activityId: string, summary: string): Promise<CompactAnswer>;
}
export type ManagedModelStep<R> = ModelStepResult<R> & {
    compactionUsage?: Usage;
};
/** What a turn's model step keeps across the turn's outage retries (a compaction is not redone). */
export interface ModelStepState {
    view?: ContextView;
    compactions: CompactionRecord[];
    compactionUsage?: Usage;
    /** Scheduled `compact-<n>` activities, by n (a retried one gets `compact-<n>-attempt-<k>`). */
    compactTries: Record<number, number>;
}
export declare function newModelStepState(): ModelStepState;
/**
 * Model activity ids: the first call keeps `model-<turn>` (audits and recorded histories name it
 * so); a retry after an outage is `model-<turn>-attempt-<k>`, a call after a compaction adds `-<j>`.
 */
export declare function modelActivityId(turn: number, outageAttempt: number, stepAttempt: number): string;
export declare function managedModelStep<Agent, Mcp, Hooks, R extends {
    kind?: 'message';
    view: ContextView;
}>(input: ModelStepTurn<Agent, Mcp, Hooks>, run: ModelStepRunners<Agent, Mcp, Hooks, R>, state?: ModelStepState, outageAttempt?: number): Promise<ManagedModelStep<R>>;
