import { type CompactContextInput, type CompactDeps } from './compact';
import { type CallModelInput, type ModelDeps } from './model';
import type { CallRuntime } from './runtime';
import { type HookDeps, type RunSessionHooksInput } from './sessionHooks';
import { type ToolDeps } from './tools';
export interface CallDeps {
    model: ModelDeps;
    compaction: CompactDeps;
    tools: ToolDeps;
    hooks: HookDeps;
}
/** Every core bound to its dependencies: model call, compaction, session hooks, the tool calls, a background task's and a Monitor's run. */
export declare function createCalls(deps: CallDeps): {
    runMonitorTask: (input: import("./monitorTask").RunMonitorTaskInput, rt: CallRuntime, deliver: import("./monitorTask").DeliverMonitorBatch) => Promise<import("./monitorTask").RunMonitorTaskResult>;
    runBackgroundTask: (input: import("./backgroundTask").RunBackgroundTaskInput, rt: CallRuntime) => Promise<import("./backgroundTask").RunBackgroundTaskResult>;
    contextFor: (input: import("./backgroundTask").RunBackgroundTaskInput, signal: AbortSignal) => Promise<import("..").ToolUseContext>;
    wholeCommand: (input: import("./backgroundTask").RunBackgroundTaskInput) => Promise<string>;
    storeOutput: (path: string, warn: CallRuntime["warn"]) => Promise<string | undefined>;
    describeToolUses: (wire: import("./tools").DescribeToolUsesInput) => Promise<import("../pipeline").ToolUseDescription[]>;
    runToolCall: (input: import("./tools").RunToolUseInput, ctx: CallRuntime, extra?: import("./toolLedger").RunExtra) => Promise<import("../engine/turn").ToolRunResult>;
    storeReadFiles: (input: {
        base: string | null;
        delta: import("../stores/readFilesStore").ReadFiles;
    }) => Promise<string | null>;
    storeToolSettings: (settings: import("./tools").StoredToolSettings) => Promise<string>;
    prepareSubagent: (input: import("./tools").RunToolUseInput, ctx: CallRuntime) => Promise<import("./tools").SubagentPrepared>;
    finishSubagent: (input: import("./tools").FinishSubagentInput, ctx: CallRuntime) => Promise<import("../engine/turn").ToolRunResult>;
    callModel: (input: CallModelInput, ctx: CallRuntime) => Promise<import("./model").ModelCallOutcome>;
    compactContext: (input: CompactContextInput, ctx: CallRuntime) => Promise<import("./compact").CompactContextResult>;
    runSessionHooks: (input: RunSessionHooksInput, signal?: AbortSignal) => Promise<import("./sessionHooks").RunSessionHooksResult>;
};
export { ModelCallError, classifyModelError } from './model';
export type { CallRuntime } from './runtime';
