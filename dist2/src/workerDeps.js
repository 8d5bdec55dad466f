"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.SMALL_FAST_MODEL_DEFAULT = void 0;
exports.defaultStoreDir = defaultStoreDir;
exports.workerPrivatePaths = workerPrivatePaths;
exports.sessionDirName = sessionDirName;
exports.sideModelOf = sideModelOf;
exports.createAgentActivities = createAgentActivities;
// The worker's dependencies, built for the activities' cores: the store (transcripts, ledger, large
// results), the Anthropic client, the tool registry and pool, the MCP connections. Temporal-free:
// the worker's start-up (src/worker.ts) and the in-process runner (src/local) both build theirs here.
const node_path_1 = require("node:path");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const activities_1 = require("./activities");
const transcript_1 = require("./hooks/transcript");
const executionLedger_1 = require("./stores/executionLedger");
const configured_1 = require("./stores/configured");
const dataHome_1 = require("./stores/dataHome");
const messageStore_1 = require("./stores/messageStore");
const sharedResultStore_1 = require("./stores/sharedResultStore");
const payloadStore_1 = require("./stores/payloadStore");
const toolSettingsStore_1 = require("./stores/toolSettingsStore");
const readFilesStore_1 = require("./stores/readFilesStore");
const builtin_1 = require("./tools/builtin");
const apiSchema_1 = require("./tools/apiSchema");
const toolPool_1 = require("./permissions/toolPool");
const resultStore_1 = require("./tools/resultStore");
const manager_1 = require("./mcp/manager");
const tools_1 = require("./mcp/tools");
const names_1 = require("./mcp/names");
const host_1 = require("./sandbox/host");
/** Where transcripts, the execution ledger and large results live: shared by every command on a machine. */
function defaultStoreDir() {
    return (0, node_path_1.resolve)(process.env.DURABLE_AGENT_STORE_DIR ?? (0, node_path_1.join)((0, dataHome_1.durableAgentHome)(), 'store'));
}
/**
 * What sandboxed Bash must never read or write on this worker: its store (every session's
 * transcripts, ledger and results), the machine's default store, a `file:` store's directory, the
 * data directory (user settings, the dev server's database) and the paths the caller adds.
 */
function workerPrivatePaths(storeDir, blobs, extra = []) {
    const paths = [
        (0, node_path_1.resolve)(storeDir),
        defaultStoreDir(),
        (0, dataHome_1.durableAgentHome)(),
        ...(blobs instanceof messageStore_1.LocalBlobStore ? [(0, node_path_1.resolve)(blobs.dir)] : []),
        ...extra.map((p) => (0, node_path_1.resolve)(p)),
    ];
    return [...new Set(paths)];
}
function sessionDirName(sessionId) {
    return sessionId.replace(/[^A-Za-z0-9_.-]/g, '_');
}
/** The small, fast model when neither the worker's options nor the environment name one. */
exports.SMALL_FAST_MODEL_DEFAULT = 'claude-haiku-4-5';
/** The side model of a worker's tools: the worker's Anthropic client, non-streamed requests. */
function sideModelOf(anthropic, model) {
    const name = model ??
        process.env.ANTHROPIC_SMALL_FAST_MODEL ??
        process.env.ANTHROPIC_DEFAULT_HAIKU_MODEL ??
        exports.SMALL_FAST_MODEL_DEFAULT;
    return {
        model: name,
        async create(req, signal) {
            const res = await anthropic().messages.create({
                model: name,
                max_tokens: req.maxTokens,
                ...(req.system ? { system: req.system } : {}),
                messages: req.messages,
                ...(req.tools ? { tools: req.tools } : {}),
                ...(req.toolChoice ? { tool_choice: req.toolChoice } : {}),
            }, { signal });
            return {
                content: res.content,
                stopReason: res.stop_reason,
                model: res.model,
            };
        },
    };
}
/** The activities of a worker, built from their dependencies (tests call this directly). */
function createAgentActivities(opts = {}) {
    const storeDir = opts.storeDir ?? defaultStoreDir();
    const blobs = (0, configured_1.configuredBlobStore)({ storeDir, ...(opts.blobStore ? { blobStore: opts.blobStore } : {}) });
    // Agent is a built-in too, but it runs only where a scheduler starts child sessions (docs/architecture.md "Subagents").
    const registry = [...(opts.replaceBuiltins ? [] : builtin_1.DEFAULT_WORKER_TOOLS), ...(opts.tools ?? [])];
    // MCP servers: the worker owns the connections (started on first use, reused across calls and
    // sessions with the same config, restarted after a crash, closed by closeMcp / worker shutdown).
    const mcp = opts.mcp ?? new manager_1.McpManager();
    const sandboxHost = opts.sandboxHost ?? new host_1.SandboxHost();
    const pool = async (toolNames, permission, session) => {
        const mcpTools = session
            ? (0, names_1.restrictMcpTools)(toolNames, (await (0, tools_1.mcpToolsFor)(mcp, session.servers, session.cwd, session.wanted)).tools)
            : [];
        return (0, toolPool_1.createToolPool)(registry.filter((t) => toolNames.includes(t.name)), permission, mcpTools.length > 0 ? { userTools: mcpTools } : {});
    };
    const anthropic = opts.anthropic ??
        (() => new sdk_1.default({
            ...(process.env.ANTHROPIC_BASE_URL ? { baseURL: process.env.ANTHROPIC_BASE_URL } : {}),
            maxRetries: 0,
        }));
    const transcripts = new messageStore_1.TranscriptStore(blobs);
    const payloads = new payloadStore_1.PayloadStore(blobs);
    const modelDeps = {
        transcripts,
        payloads,
        anthropic,
        // The same pool as execution: the session's tools minus blanket deny rules and disabled tools.
        // MCP tools are listed here, in the model activity of each turn (tools/list on the worker's
        // connection): the schemas never travel through workflow history.
        toolDefinitions: async (names, denyRules = [], session, warn) => {
            const listed = session ? await (0, tools_1.mcpToolsFor)(mcp, session.servers, session.cwd) : undefined;
            for (const f of listed?.failures ?? [])
                (warn ?? console.warn)(`${f.error}; its tools are not offered this turn`);
            const permission = {
                mode: 'default',
                rules: { allow: [], ask: [], deny: denyRules },
                workingDirectories: [],
            };
            const mcpTools = listed ? (0, names_1.restrictMcpTools)(names, listed.tools) : [];
            const pool = (0, toolPool_1.createToolPool)(registry.filter((t) => names.includes(t.name)), permission, mcpTools.length > 0 ? { userTools: mcpTools } : {});
            // Which tools tool search may defer (src/tools/toolSearch.ts decides per request).
            return (await (0, apiSchema_1.toolsToAPISchemas)(pool)).map((s, i) => (pool[i]?.shouldDefer ? { ...s, deferrable: true } : s));
        },
        ...(opts.disableStreamingFallback ? { disableFallback: true } : {}),
        resultPath: (sessionId, toolUseId) => (0, node_path_1.join)(storeDir, 'results', sessionDirName(sessionId), (0, resultStore_1.resultFileName)(toolUseId)),
    };
    const compactDeps = { ...modelDeps, ...(opts.hooks ? { hooks: opts.hooks } : {}) };
    const { activities, runToolCall, runSessionHooks, runBackgroundTask, runMonitorTask } = (0, activities_1.createActivities)({
        model: modelDeps,
        compaction: compactDeps,
        tools: {
            pool,
            ledger: new executionLedger_1.ExecutionLedger(blobs),
            readFiles: new readFilesStore_1.ReadFilesStore(blobs),
            toolSettings: new toolSettingsStore_1.ToolSettingsStore(blobs),
            transcripts,
            payloads,
            // With a store shared by several hosts, large results are kept there too (a Read may run elsewhere).
            privatePaths: workerPrivatePaths(storeDir, blobs, opts.privatePaths),
            sandboxHost,
            resultStore: (sessionId) => blobs instanceof messageStore_1.LocalBlobStore
                ? new resultStore_1.LocalResultStore((0, node_path_1.join)(storeDir, 'results', sessionDirName(sessionId)))
                : new sharedResultStore_1.SharedResultStore((0, node_path_1.join)(storeDir, 'results', sessionDirName(sessionId)), blobs, sessionId, sessionDirName(sessionId)),
            ...(opts.hooks ? { hooks: opts.hooks } : {}),
            transcriptFile: (sessionId) => (0, transcript_1.transcriptPathFor)(storeDir, sessionId),
            sideModel: sideModelOf(anthropic, opts.smallFastModel),
        },
        hooks: {
            transcripts,
            transcriptFile: (sessionId) => (0, transcript_1.transcriptPathFor)(storeDir, sessionId),
            ...(opts.hooks ? { hooks: opts.hooks } : {}),
        },
    });
    return {
        activities,
        runToolCall,
        runSessionHooks,
        runBackgroundTask,
        runMonitorTask,
        modelDeps,
        compactDeps,
        registry,
        storeDir,
        blobs,
        transcripts,
        payloads,
        mcp,
        sandboxHost,
        closeMcp: () => mcp.close(),
    };
}
//# sourceMappingURL=workerDeps.js.map