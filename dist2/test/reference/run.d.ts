import '../support/isolatedHome';
import { type RefCase } from './cases';
import { type SessionSide } from './session';
/** The version of @anthropic-ai/claude-code the cases are checked against. */
export declare const PINNED_VERSION = "2.1.328";
export declare const REFERENCE_VERSION: string;
export declare const CACHE_DIR: string;
export declare const CLAUDE_BIN: string;
/** What one agent did with one tool_use block. */
export interface Observed {
    content: string;
    isError: boolean;
    persisted: boolean;
    pre?: Record<string, unknown>;
    post?: Record<string, unknown>;
    /** PostToolUseFailure's input (a call that failed). */
    failure?: Record<string, unknown>;
}
export interface SideResult {
    results: Map<string, Observed>;
    files: Record<string, string>;
    /** The case's `modelSees` texts the model's conversation mentions. */
    seen: string[];
    /** Session-level hook inputs and the transcript file. */
    session: SessionSide;
    /** ToolSearch cases: per model request, the case's called tools whose schema the request carried (sent up front or loaded). */
    offered?: string[][];
    /** Background Bash calls: each task's output file at the end (by tool_use id), and the task notifications the model got. */
    background?: {
        outputs: Record<string, string>;
        notifications: string[];
    };
    error?: string;
}
export declare function ensureReference(): void;
/**
 * A scheduling tool's text without what differs by nature between two runs: job ids (random in the
 * reference, derived from the call in durable-agent), clock times and dates of the next run, the
 * seconds until a wake-up (the reference rounds up to a whole minute).
 */
export declare function normaliseSchedule(text: string): string;
export declare function runReference(c: RefCase): Promise<SideResult>;
export declare function runDurableAgent(c: RefCase): Promise<SideResult>;
export interface Diff {
    /** The tool of the call (undefined for the run and file rows). */
    tool?: string;
    /** is_error, persisted, PreToolUse ran, PostToolUse ran, PostToolUseFailure ran, tool_input, tool_name, tool_response keys, tool_response (values: Read, Write, Edit, Bash), file, run. */
    aspect: string;
    /** The file of a `file` row (`dir/` for a directory). */
    path?: string;
    text: string;
}
/** What differs between the two sides of one case (empty: they agree). */
export declare function compare(c: RefCase, ref: SideResult, ours: SideResult): Diff[];
