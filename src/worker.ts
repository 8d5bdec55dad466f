// Worker start-up: the only place that builds real clients and stores and wires them into the
// activity factories. Library users call createAgentWorker() with their own tools and hooks.
import { resolve, join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { NativeConnection, Worker, bundleWorkflowCode, type WorkerOptions } from '@temporalio/worker';
import { createActivities } from './activities';
import type { ModelDeps } from './calls/model';
import { loadShellParser, shellParserError } from './permissions/bashParser';
import { transcriptPathFor } from './hooks/transcript';
import type { HooksConfig } from './hooks';
import { ExecutionLedger } from './stores/executionLedger';
import { configuredBlobStore } from './stores/configured';
import { durableAgentHome } from './stores/dataHome';
import { workerLimits } from './workerLimits';
import { LocalBlobStore, TranscriptStore, type BlobStore } from './stores/messageStore';
import { SharedResultStore } from './stores/sharedResultStore';
import { PayloadStore } from './stores/payloadStore';
import { ToolSettingsStore } from './stores/toolSettingsStore';
import { ReadFilesStore } from './stores/readFilesStore';
import { AgentTool, BUILTIN_TOOLS, EnterWorktreeTool, ExitWorktreeTool, SCHEDULE_TOOLS } from './tools/builtin';
import { toolsToAPISchemas } from './tools/apiSchema';
import { createToolPool } from './permissions/toolPool';
import { LocalResultStore, resultFileName } from './tools/resultStore';
import { bashSpoolCapBytes } from './tools/builtin/bashProcess';
import type { CompactDeps } from './calls/compact';
import type { AnyTool } from './tools/Tool';
import type { ToolPermissionContext } from './tools/permissionTypes';
import { TASK_QUEUE_DEFAULT } from './workflows/definitions';
import { McpManager } from './mcp/manager';
import { startSweeping } from './sandbox/reaper';
import { mcpToolsFor } from './mcp/tools';
import { restrictMcpTools } from './mcp/names';
import type { SessionMcp } from './calls/tools';

export interface AgentWorkerOptions {
  connection: NativeConnection;
  namespace?: string;
  /** Default: env DURABLE_AGENT_TASK_QUEUE, else 'durable-agent'. */
  taskQueue?: string;
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
  /** Pre-built workflow bundle (tests reuse one); default: bundled from src/workflows. */
  workflowBundle?: { code: string };
  disableStreamingFallback?: boolean;
  /** The worker's MCP connections (default: a new McpManager; timeouts from MCP_TIMEOUT / MCP_TOOL_TIMEOUT). */
  mcp?: McpManager;
  workerOptions?: Partial<
    Omit<WorkerOptions, 'connection' | 'taskQueue' | 'activities' | 'workflowsPath' | 'workflowBundle'>
  >;
}

export const workflowsPath = require.resolve('./workflows');

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

/** The activities of a worker, built from their dependencies (tests call this directly). */
export function createAgentActivities(
  opts: Omit<AgentWorkerOptions, 'connection' | 'workflowBundle' | 'workerOptions' | 'namespace' | 'taskQueue'> = {},
) {
  const storeDir = opts.storeDir ?? defaultStoreDir();
  const blobs = configuredBlobStore({ storeDir, ...(opts.blobStore ? { blobStore: opts.blobStore } : {}) });
  // Agent is a built-in too, but it runs only where a scheduler starts child sessions (docs/architecture.md "Subagents").
  const registry: AnyTool[] = [
    ...(opts.replaceBuiltins
      ? []
      : [...BUILTIN_TOOLS, AgentTool, EnterWorktreeTool, ExitWorktreeTool, ...SCHEDULE_TOOLS]),
    ...(opts.tools ?? []),
  ];
  // MCP servers: the worker owns the connections (started on first use, reused across calls and
  // sessions with the same config, restarted after a crash, closed by closeMcp / worker shutdown).
  const mcp = opts.mcp ?? new McpManager();
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
      return toolsToAPISchemas(
        createToolPool(
          registry.filter((t) => names.includes(t.name)),
          permission,
          mcpTools.length > 0 ? { userTools: mcpTools } : {},
        ),
      );
    },
    ...(opts.disableStreamingFallback ? { disableFallback: true } : {}),
    resultPath: (sessionId, toolUseId) =>
      join(storeDir, 'results', sessionDirName(sessionId), resultFileName(toolUseId)),
  };
  const compactDeps: CompactDeps = { ...modelDeps, ...(opts.hooks ? { hooks: opts.hooks } : {}) };
  const { activities, runToolCall, runSessionHooks } = createActivities({
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
    },
    hooks: {
      transcripts,
      transcriptFile: (sessionId) => transcriptPathFor(storeDir, sessionId),
      ...(opts.hooks ? { hooks: opts.hooks } : {}),
    },
  });
  return {
    activities,
    runToolCall,
    runSessionHooks,
    modelDeps,
    compactDeps,
    registry,
    storeDir,
    blobs,
    transcripts,
    payloads,
    mcp,
    closeMcp: () => mcp.close(),
  };
}

export async function createAgentWorker(opts: AgentWorkerOptions): Promise<Worker> {
  bashSpoolCapBytes(); // a malformed DURABLE_AGENT_BASH_MAX_SPOOL_BYTES stops the worker at start, not each Bash call
  const { activities, closeMcp, blobs } = createAgentActivities(opts);
  // Bash rules and read-only detection run on the tree-sitter-bash parser (wasm, loaded once).
  if (!(await loadShellParser())) {
    console.warn(
      `durable-agent: the shell parser did not load (${shellParserError()}); every Bash command will be treated as unknown (never read-only, matched by no allow rule).`,
    );
  }
  const worker = await Worker.create({
    connection: opts.connection,
    namespace: opts.namespace ?? process.env.TEMPORAL_NAMESPACE ?? 'default',
    taskQueue: opts.taskQueue ?? process.env.DURABLE_AGENT_TASK_QUEUE ?? TASK_QUEUE_DEFAULT,
    activities,
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath }),
    // Cancellation reaches an activity on its next heartbeat: keep the throttle short so an
    // interrupted Bash dies well within two seconds. Tool calls send a keepalive every 500 ms
    // (calls/heartbeat.ts); the throttle coalesces progress and the model's per-event
    // heartbeats to the same rate.
    maxHeartbeatThrottleInterval: '500 ms',
    defaultHeartbeatThrottleInterval: '500 ms',
    // Activities, workflow tasks, cached workflows: sized per concurrent session (src/workerLimits.ts).
    ...workerLimits(),
    ...opts.workerOptions,
  });
  // The worker owns its MCP connections: they close when it stops running.
  const run = worker.run.bind(worker);
  worker.run = async () => {
    // Sandbox processes left by workers of this host that died (a SIGKILL in the first
    // milliseconds of a sandboxed Bash): swept now and every minute (src/sandbox/reaper.ts).
    const stopSweeping = startSweeping();
    try {
      return await run();
    } finally {
      stopSweeping();
      await closeMcp();
      // A store this worker opened (a PostgreSQL pool from DURABLE_AGENT_STORE) closes with it; one passed in belongs to the caller.
      if (!opts.blobStore) await (blobs as { close?: () => Promise<void> }).close?.().catch(() => undefined);
    }
  };
  return worker;
}

let bundleCache: Promise<{ code: string }> | undefined;
/** Bundles the workflows once per process (webpack is slow). */
export function bundleAgentWorkflows(): Promise<{ code: string }> {
  bundleCache ??= bundleWorkflowCode({ workflowsPath, logger: quietLogger });
  return bundleCache;
}

const quietLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (m: string) => console.warn(m),
  error: (m: string) => console.error(m),
};
