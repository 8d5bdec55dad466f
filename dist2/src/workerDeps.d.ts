import Anthropic from '@anthropic-ai/sdk';
import type { ModelDeps } from './calls/model';
import type { HooksConfig } from './hooks';
import { TranscriptStore, type BlobStore } from './stores/messageStore';
import { PayloadStore } from './stores/payloadStore';
import type { CompactDeps } from './calls/compact';
import type { AnyTool, SideModel } from './tools/Tool';
import { McpManager } from './mcp/manager';
import { SandboxHost } from './sandbox/host';
export interface AgentDepsOptions {
    /** Extra tools for this worker's registry (sessions pick tools by name). */
    tools?: AnyTool[];
    /** Replace the built-in tools entirely. */
    replaceBuiltins?: boolean;
    /** Programmatic hooks, merged after each session's configured hooks. */
    hooks?: HooksConfig;
    /** Where transcripts, the execution ledger and large results live. Default: env DURABLE_AGENT_STORE_DIR, else ~/.durable-agent/store. */
    storeDir?: string;
    /**
     * More paths of the worker's own state that sandboxed Bash may neither read nor write (`dev`
     * adds its server's database). The store, the blob directory and the data directory always are.
     */
    privatePaths?: string[];
    /** A shared blob store for multi-host deployments; default: env DURABLE_AGENT_BLOB_STORE's module, else a LocalBlobStore under storeDir. */
    blobStore?: BlobStore;
    /** Builds the Anthropic client. Default: the SDK with ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL. */
    anthropic?: () => Anthropic;
    /**
     * The small, fast model of the calls tools make themselves (WebFetch reads a page, WebSearch
     * searches). Default: env ANTHROPIC_SMALL_FAST_MODEL, else ANTHROPIC_DEFAULT_HAIKU_MODEL, else
     * SMALL_FAST_MODEL_DEFAULT.
     */
    smallFastModel?: string;
    disableStreamingFallback?: boolean;
    /** The worker's MCP connections (default: a new McpManager; timeouts from MCP_TIMEOUT / MCP_TOOL_TIMEOUT). */
    mcp?: McpManager;
    /** Bash's OS sandbox on this host (default: a new SandboxHost; hosts of one process share the runtime's lock). */
    sandboxHost?: SandboxHost;
}
/** Where transcripts, the execution ledger and large results live: shared by every command on a machine. */
export declare function defaultStoreDir(): string;
/**
 * What sandboxed Bash must never read or write on this worker: its store (every session's
 * transcripts, ledger and results), the machine's default store, a `file:` store's directory, the
 * data directory (user settings, the dev server's database) and the paths the caller adds.
 */
export declare function workerPrivatePaths(storeDir: string, blobs: BlobStore, extra?: readonly string[]): string[];
export declare function sessionDirName(sessionId: string): string;
/** The small, fast model when neither the worker's options nor the environment name one. */
export declare const SMALL_FAST_MODEL_DEFAULT = "claude-haiku-4-5";
/** The side model of a worker's tools: the worker's Anthropic client, non-streamed requests. */
export declare function sideModelOf(anthropic: () => Anthropic, model?: string): SideModel;
/** The activities of a worker, built from their dependencies (tests call this directly). */
export declare function createAgentActivities(opts?: AgentDepsOptions): {
    activities: {
        callModel: (input: import("./calls/model").CallModelInput) => Promise<import("./calls/model").ModelCallOutcome>;
        appendTranscript: (input: {
            head: string | null;
            messages: import("./engine/payloads").MessageByRef[];
        }) => Promise<string | null>;
        loadTranscript: (input: {
            head: string | null;
        }) => Promise<import(".").Message[]>;
        compactContext: (input: import("./calls/compact").CompactContextInput) => Promise<import("./calls/compact").CompactContextResult>;
        describeToolUses: (wire: import("./calls/tools").DescribeToolUsesInput) => Promise<import("./pipeline").ToolUseDescription[]>;
        runToolUse: (input: import("./calls/tools").RunToolUseInput) => Promise<import("./engine/turn").ToolRunResult>;
        storeReadFiles: (input: {
            base: string | null;
            delta: import("./stores/readFilesStore").ReadFiles;
        }) => Promise<string | null>;
        storeToolSettings: (settings: import("./calls/tools").StoredToolSettings) => Promise<string>;
        runSessionHooks: (input: import("./calls/sessionHooks").RunSessionHooksInput) => Promise<import("./calls/sessionHooks").RunSessionHooksResult>;
        prepareSubagent: (input: import("./calls/tools").RunToolUseInput) => Promise<import("./calls/tools").SubagentPrepared>;
        finishSubagent: (input: import("./calls/tools").FinishSubagentInput) => Promise<import("./engine/turn").ToolRunResult>;
        awaitSubagent: (input: {
            workflowId: string;
        }) => Promise<import(".").SessionResult>;
        nextCronFires: (input: import("./activities/schedule").NextCronFiresInput) => Promise<import("./activities/schedule").NextCronFiresResult>;
        runBackgroundTask: (input: import("./calls/backgroundTask").RunBackgroundTaskInput) => Promise<import("./calls/backgroundTask").RunBackgroundTaskResult>;
        runMonitorTask: (input: import("./calls/backgroundTask").RunBackgroundTaskInput) => Promise<import("./calls/monitorTask").RunMonitorTaskResult>;
        prepareAgentWorktree: (input: {
            cwd: string;
            name: string;
        }) => Promise<import("./engine/subagents").AgentWorktreeReady | {
            error: string;
        }>;
        settleAgentWorktree: (input: {
            worktree: import("./engine/subagents").AgentWorktreeReady;
        }) => Promise<{
            path: string;
            branch: string;
        } | null>;
        awaitAgentTask: (input: {
            workflowId: string;
            worktree?: import("./engine/subagents").AgentWorktreeReady;
        }) => Promise<import("./activities/subagents").AgentTaskResult>;
    };
    runToolCall: (input: import("./calls/tools").RunToolUseInput, ctx: import("./calls").CallRuntime, extra?: import("./calls/toolLedger").RunExtra) => Promise<import("./engine/turn").ToolRunResult>;
    runSessionHooks: (input: import("./calls/sessionHooks").RunSessionHooksInput, signal?: AbortSignal) => Promise<import("./calls/sessionHooks").RunSessionHooksResult>;
    runBackgroundTask: (input: import("./calls/backgroundTask").RunBackgroundTaskInput, rt: import("./calls").CallRuntime) => Promise<import("./calls/backgroundTask").RunBackgroundTaskResult>;
    runMonitorTask: (input: import("./calls/monitorTask").RunMonitorTaskInput, rt: import("./calls").CallRuntime, deliver: import("./calls/monitorTask").DeliverMonitorBatch) => Promise<import("./calls/monitorTask").RunMonitorTaskResult>;
    modelDeps: ModelDeps;
    compactDeps: CompactDeps;
    registry: AnyTool[];
    storeDir: string;
    blobs: BlobStore;
    transcripts: TranscriptStore;
    payloads: PayloadStore;
    mcp: McpManager;
    sandboxHost: SandboxHost;
    closeMcp: () => Promise<void>;
};
