// The worker's dependencies, built for the activities' cores: the store (transcripts, ledger, large
// results), the Anthropic client, the tool registry and pool, the MCP connections. Temporal-free:
// the worker's start-up (src/worker.ts) and the in-process runner (src/local) both build theirs here.
import { resolve, join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { createActivities } from './activities';
import { MAX_PAUSE_CONTINUATIONS, type ModelDeps } from './calls/model';
import { transcriptPathFor } from './hooks/transcript';
import type { HooksConfig } from './hooks';
import { ExecutionLedger } from './stores/executionLedger';
import { configuredBlobStore } from './stores/configured';
import { durableAgentHome } from './stores/dataHome';
import { LocalBlobStore, TranscriptStore, type BlobStore } from './stores/messageStore';
import { SharedResultStore } from './stores/sharedResultStore';
import { PayloadStore } from './stores/payloadStore';
import { ToolSettingsStore } from './stores/toolSettingsStore';
import { ReadFilesStore } from './stores/readFilesStore';
import { DEFAULT_WORKER_TOOLS } from './tools/builtin';
import { toolsToAPISchemas } from './tools/apiSchema';
import { createToolPool } from './permissions/toolPool';
import { LocalResultStore, resultFileName } from './tools/resultStore';
import type { CompactDeps } from './calls/compact';
import type { AnyTool, SideModel } from './tools/Tool';
import type { ToolPermissionContext } from './tools/permissionTypes';
import { McpManager } from './mcp/manager';
import { mcpToolsFor } from './mcp/tools';
import { restrictMcpTools } from './mcp/names';
import type { SessionMcp } from './calls/tools';
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
export function defaultStoreDir(): string {
  return resolve(process.env.DURABLE_AGENT_STORE_DIR ?? join(durableAgentHome(), 'store'));
}

/**
 * What sandboxed Bash must never read or write on this worker: its store (every session's
 * transcripts, ledger and results), the machine's default store, a `file:` store's directory, the
 * data directory (user settings, the dev server's database) and the paths the caller adds.
 */
export function workerPrivatePaths(storeDir: string, blobs: BlobStore, extra: readonly string[] = []): string[] {
  const paths = [
    resolve(storeDir),
    defaultStoreDir(),
    durableAgentHome(),
    ...(blobs instanceof LocalBlobStore ? [resolve(blobs.dir)] : []),
    ...extra.map((p) => resolve(p)),
  ];
  return [...new Set(paths)];
}

export function sessionDirName(sessionId: string): string {
  return sessionId.replace(/[^A-Za-z0-9_.-]/g, '_');
}

/** The small, fast model when neither the worker's options nor the environment name one. */
export const SMALL_FAST_MODEL_DEFAULT = 'claude-haiku-4-5';

/** The side model of a worker's tools: the worker's Anthropic client, non-streamed requests. */
export function sideModelOf(anthropic: () => Anthropic, model?: string): SideModel {
  const name =
    model ??
    process.env.ANTHROPIC_SMALL_FAST_MODEL ??
    process.env.ANTHROPIC_DEFAULT_HAIKU_MODEL ??
    SMALL_FAST_MODEL_DEFAULT;
  return {
    model: name,
    async create(req, signal) {
      const client = anthropic();
      const params = {
        model: name,
        max_tokens: req.maxTokens,
        ...(req.system ? { system: req.system } : {}),
        messages: req.messages as Anthropic.MessageParam[],
        ...(req.tools ? { tools: req.tools as unknown as Anthropic.ToolUnion[] } : {}),
        ...(req.toolChoice ? { tool_choice: req.toolChoice as unknown as Anthropic.ToolChoice } : {}),
      };
      // A server tool's loop (web_search) may pause a long turn (stop_reason pause_turn): the turn
      // goes on when the paused content is sent back as is, the same request otherwise, until
      // another stop reason (issue 31 item 4); bounded as the main loop's (calls/model.ts).
      const responses: Anthropic.Message[] = [];
      let messages = params.messages;
      for (;;) {
        const res = await client.messages.create({ ...params, messages }, { signal });
        responses.push(res);
        if (res.stop_reason !== 'pause_turn') break;
        if (responses.length > MAX_PAUSE_CONTINUATIONS)
          throw new Error(
            `the API paused the ${req.purpose} call ${responses.length} times (stop_reason pause_turn) without finishing it`,
          );
        const paused = responses.flatMap((r) => r.content) as unknown as Anthropic.ContentBlockParam[];
        messages = [...params.messages, { role: 'assistant', content: paused }];
      }
      const last = responses[responses.length - 1] as Anthropic.Message;
      return {
        content: responses.flatMap((r) => r.content) as unknown as Array<Record<string, unknown>>,
        stopReason: last.stop_reason,
        model: last.model,
        // Every continuation is billed: the usage of the call is the sum over its requests.
        usage: sumApiUsage(responses.map((r) => r.usage)),
      };
    },
  };
}

/** The activities of a worker, built from their dependencies (tests call this directly). */
export function createAgentActivities(opts: AgentDepsOptions = {}) {
  const storeDir = opts.storeDir ?? defaultStoreDir();
  const blobs = configuredBlobStore({ storeDir, ...(opts.blobStore ? { blobStore: opts.blobStore } : {}) });
  // Agent is a built-in too, but it runs only where a scheduler starts child sessions (docs/architecture.md "Subagents").
  const registry: AnyTool[] = [...(opts.replaceBuiltins ? [] : DEFAULT_WORKER_TOOLS), ...(opts.tools ?? [])];
  // MCP servers: the worker owns the connections (started on first use, reused across calls and
  // sessions with the same config, restarted after a crash, closed by closeMcp / worker shutdown).
  const mcp = opts.mcp ?? new McpManager();
  const sandboxHost = opts.sandboxHost ?? new SandboxHost();
  const pool = async (toolNames: string[], permission: ToolPermissionContext, session?: SessionMcp) => {
    const mcpTools = session
      ? restrictMcpTools(toolNames, (await mcpToolsFor(mcp, session.servers, session.cwd, session.wanted)).tools)
      : [];
    return createToolPool(
      registry.filter((t) => toolNames.includes(t.name)),
      permission,
      mcpTools.length > 0 ? { userTools: mcpTools } : {},
    );
  };
  const anthropic =
    opts.anthropic ??
    (() =>
      new Anthropic({
        ...(process.env.ANTHROPIC_BASE_URL ? { baseURL: process.env.ANTHROPIC_BASE_URL } : {}),
        maxRetries: 0,
      }));
  const transcripts = new TranscriptStore(blobs);
  const payloads = new PayloadStore(blobs);
  const modelDeps: ModelDeps = {
    transcripts,
    payloads,
    anthropic,
    // The same pool as execution: the session's tools minus blanket deny rules and disabled tools.
    // MCP tools are listed here, in the model activity of each turn (tools/list on the worker's
    // connection): the schemas never travel through workflow history.
    toolDefinitions: async (names, denyRules = [], session, warn) => {
      const listed = session ? await mcpToolsFor(mcp, session.servers, session.cwd) : undefined;
      for (const f of listed?.failures ?? []) (warn ?? console.warn)(`${f.error}; its tools are not offered this turn`);
      const permission = {
        mode: 'default' as const,
        rules: { allow: [], ask: [], deny: denyRules },
        workingDirectories: [],
      };
      const mcpTools = listed ? restrictMcpTools(names, listed.tools) : [];
      const pool = createToolPool(
        registry.filter((t) => names.includes(t.name)),
        permission,
        mcpTools.length > 0 ? { userTools: mcpTools } : {},
      );
      // Which tools tool search may defer (src/tools/toolSearch.ts decides per request).
      return (await toolsToAPISchemas(pool)).map((s, i) => (pool[i]?.shouldDefer ? { ...s, deferrable: true } : s));
    },
    ...(opts.disableStreamingFallback ? { disableFallback: true } : {}),
    resultPath: (sessionId, toolUseId) =>
      join(storeDir, 'results', sessionDirName(sessionId), resultFileName(toolUseId)),
  };
  const compactDeps: CompactDeps = {
    ...modelDeps,
    ...(opts.hooks ? { hooks: opts.hooks } : {}),
    // PreCompact command hooks run in the session's sandbox, denied the worker's state.
    sandboxHost,
    privatePaths: workerPrivatePaths(storeDir, blobs, opts.privatePaths),
  };
  const { activities, runToolCall, runSessionHooks, runBackgroundTask, runMonitorTask } = createActivities({
    model: modelDeps,
    compaction: compactDeps,
    tools: {
      pool,
      ledger: new ExecutionLedger(blobs),
      readFiles: new ReadFilesStore(blobs),
      toolSettings: new ToolSettingsStore(blobs),
      transcripts,
      payloads,
      // With a store shared by several hosts, large results are kept there too (a Read may run elsewhere).
      privatePaths: workerPrivatePaths(storeDir, blobs, opts.privatePaths),
      sandboxHost,
      resultStore: (sessionId) =>
        blobs instanceof LocalBlobStore
          ? new LocalResultStore(join(storeDir, 'results', sessionDirName(sessionId)))
          : new SharedResultStore(
              join(storeDir, 'results', sessionDirName(sessionId)),
              blobs,
              sessionId,
              sessionDirName(sessionId),
            ),
      ...(opts.hooks ? { hooks: opts.hooks } : {}),
      transcriptFile: (sessionId) => transcriptPathFor(storeDir, sessionId),
      sideModel: sideModelOf(anthropic, opts.smallFastModel),
    },
    hooks: {
      transcripts,
      transcriptFile: (sessionId) => transcriptPathFor(storeDir, sessionId),
      ...(opts.hooks ? { hooks: opts.hooks } : {}),
      // The session's command hooks run in its sandbox (src/hooks/sandboxed.ts), denied the worker's state.
      sandboxHost,
      privatePaths: workerPrivatePaths(storeDir, blobs, opts.privatePaths),
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

/** The API usage of several requests of one call, added field by field (server tool counts too). */
function sumApiUsage(list: readonly Anthropic.Usage[]): Anthropic.Usage {
  const add = (a: number | null | undefined, b: number | null | undefined) =>
    a == null && b == null ? (a ?? b ?? null) : (a ?? 0) + (b ?? 0);
  return list.reduce((acc, u) => ({
    ...acc,
    input_tokens: acc.input_tokens + u.input_tokens,
    output_tokens: acc.output_tokens + u.output_tokens,
    cache_creation_input_tokens: add(acc.cache_creation_input_tokens, u.cache_creation_input_tokens),
    cache_read_input_tokens: add(acc.cache_read_input_tokens, u.cache_read_input_tokens),
    ...(acc.server_tool_use || u.server_tool_use
      ? {
          server_tool_use: {
            ...(acc.server_tool_use ?? u.server_tool_use)!,
            web_search_requests:
              (acc.server_tool_use?.web_search_requests ?? 0) + (u.server_tool_use?.web_search_requests ?? 0),
          },
        }
      : {}),
  }));
}
