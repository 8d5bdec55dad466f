import { type FinishSubagentInput, type RunToolUseInput, type SubagentPrepared, type ToolDeps } from '../calls/tools';
import type { ToolRunResult } from '../engine/turn';
export declare function createToolActivities(deps: ToolDeps): {
    describeToolUses: (wire: import("../calls/tools").DescribeToolUsesInput) => Promise<import("../engine/turn").ToolUseDescription[]>;
    runToolUse: (input: RunToolUseInput) => Promise<ToolRunResult>;
    runToolCall: (input: RunToolUseInput, ctx: import("../calls").CallRuntime, extra?: import("../calls/toolLedger").RunExtra) => Promise<ToolRunResult>;
    storeReadFiles: (input: {
        base: string | null;
        delta: import("../stores/readFilesStore").ReadFiles;
    }) => Promise<string | null>;
    storeToolSettings: (settings: import("../calls/tools").StoredToolSettings) => Promise<string>;
    prepareSubagent: (input: RunToolUseInput) => Promise<SubagentPrepared>;
    finishSubagent: (input: FinishSubagentInput) => Promise<ToolRunResult>;
};
