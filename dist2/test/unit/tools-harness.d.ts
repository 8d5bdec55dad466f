import { type AgentContext } from '../../src/engine/context';
import type { ToolResultBlockParam } from '../../src/engine/messages';
import type { AnyTool, ToolProgress, ToolUseContext } from '../../src/tools/Tool';
export declare function makeTmpDir(prefix?: string): Promise<string>;
export declare function removeDir(dir: string): Promise<void>;
/** Writes files (relative path -> content), creating directories; optional mtimes in seconds. */
export declare function writeTree(root: string, files: Record<string, string>, mtimes?: Record<string, number>): Promise<void>;
export declare function makeContext(agent: AgentContext, signal?: AbortSignal, workingDirectories?: string[]): ToolUseContext;
export interface RunOutcome {
    /** Schema or validateInput failure message (call not run). */
    invalid?: string;
    /** call() threw. */
    thrown?: Error;
    data?: any;
    block?: ToolResultBlockParam;
    text: string;
    isError: boolean;
    progress: ToolProgress[];
}
export declare class ToolSession {
    agent: AgentContext;
    /** The session's working directories: fixed at start, whatever `cd` does later. */
    readonly workingDirectories: string[];
    constructor(cwd: string);
    run(tool: AnyTool, rawInput: unknown, opts?: {
        signal?: AbortSignal;
        backgroundTasks?: boolean;
    }): Promise<RunOutcome>;
}
