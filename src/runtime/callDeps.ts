// What every call core needs, built from a runner's options: the store (transcripts, execution
// ledger, large results), the Anthropic client and the side model, the tool registry and pool, the
// MCP connections and Bash's sandbox host — and the cores of src/runtime bound to them
// (`createCallDeps`). Temporal-free: the worker's activities (src/temporal/activities, `createAgentActivities`)
// wrap these cores, the in-process runner (src/inprocess) calls them directly.
import { resolve, join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { createCalls, type CallDeps } from './index';
import { subagentSessionParts } from '../core/subagents';
import type { ModelDeps } from './model';
import type { CompactDeps } from './compact';
import { sideModelOf } from './sideModel';
import type { SessionMcp } from '../toolCall/tools';
import { transcriptPathFor } from '../hooks/transcript';
import type { HooksConfig } from '../hooks';
import { ExecutionLedger } from '../stores/executionLedger';
import { configuredBlobStore } from '../stores/configured';
import { baseBlobStore } from '../stores/encryptedBlobStore';
import { defaultStoreDir, durableAgentHome, localStoresRoot } from '../stores/dataHome';
import { programCacheRoot } from '../hostProcess/programs';
import { LocalBlobStore, TranscriptStore, type BlobStore } from '../stores/messageStore';
import { SharedResultStore } from '../stores/sharedResultStore';
import { PayloadStore } from '../stores/payloadStore';
import { ToolSettingsStore } from '../stores/toolSettingsStore';
import { StepStaticsStore } from '../stores/stepStaticsStore';
import { ReadFilesStore } from '../stores/readFilesStore';
import { DEFAULT_WORKER_TOOLS } from '../tools';
import { toolsToAPISchemas } from '../toolProtocol/apiSchema';
import { createToolPool } from '../permissions/toolPool';
import { LocalResultStore, resultFileName, sessionFileName } from '../toolProtocol/resultStore';
import type { AnyTool } from '../toolProtocol/Tool';
import type { ToolPermissionContext } from '../toolProtocol/permissionTypes';
import { McpManager } from '../mcp/manager';
import { mcpSessionScope, type McpSessionListing, type McpSessionScope } from '../mcp/sandboxed';
import { mcpToolsFor } from '../mcp/tools';
import { restrictMcpTools } from '../mcp/names';
import { SandboxHost } from '../sandbox/host';
import type { EncryptionSetting } from '../encryption/keys';

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
  /**
   * The keys that encrypt payloads (the worker's codec) and blobs (docs/encryption.md): a KeyRing,
   * `{ keyFile }`, `{ keys: [base64…] }` (current first) or `false` for none. Default: the files
   * named by env DURABLE_AGENT_ENCRYPTION_KEY_FILE, else off.
   */
  encryption?: EncryptionSetting;
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

/** Where transcripts, the execution ledger and large results live (src/stores/dataHome.ts). */
export { defaultStoreDir };

/**
 * What sandboxed Bash must never read or write on this worker: its store (every session's
 * transcripts, ledger and results), the machine's default store, a `file:` store's directory, the
 * data directory (user settings, the dev server's database), the cache of programs the person's
 * next `dev` runs (the Temporal CLI, issue 30 K8) and the paths the caller adds.
 */
export function workerPrivatePaths(storeDir: string, blobs: BlobStore, extra: readonly string[] = []): string[] {
  const base = baseBlobStore(blobs);
  const paths = [
    resolve(storeDir),
    defaultStoreDir(),
    durableAgentHome(),
    // Every in-process session's temporary store (another session's too: red team, issue 30, K7).
    localStoresRoot(),
    programCacheRoot(),
    ...(base instanceof LocalBlobStore ? [resolve(base.dir)] : []),
    ...extra.map((p) => resolve(p)),
  ];
  return [...new Set(paths)];
}

/** The folder inside a session's results directory holding its subagents' results directories. */
export const SUBAGENT_RESULTS_DIR = 'agents';

/**
 * Where a session's large results are kept, relative to `<store>/results`. A top-level session has
 * one name: an id of `[A-Za-z0-9_.-]` (at most 100 characters, not `.`/`..`) is its own name; any
 * other id is made safe and suffixed `+<hash of the id>` — a `+` no unchanged name holds — so that
 * two ids (`a/b` and `a_b`) never share a directory (issue 30 round f). A subagent's directory
 * (`<parent>/agent-<tool_use_id>`: foreground, background and isolated agents, and theirs) lies
 * INSIDE its parent's, `<parent's>/agents/<name of agent-<tool_use_id>>`: "a parent reads its
 * children" is "a path inside the session's own directory" (sessionsApart.ts), and no top-level
 * session, whose directory is one name directly under `results/`, can land there (issue 30 round g).
 */
export function sessionDirName(sessionId: string): string {
  const child = subagentSessionParts(sessionId);
  if (child)
    return join(sessionDirName(child.parent), SUBAGENT_RESULTS_DIR, sessionFileName(`agent-${child.toolUseId}`));
  return sessionFileName(sessionId);
}

/**
 * The name releases before 0.3.0 gave a session's results directory (every other character made
 * `_`: not one per id — `a/b` and `a_b` shared it). Nothing is read there any more: a Read of it is
 * refused with a message saying why (formerResultsDir, anotherSessionMessage).
 */
export function legacySessionDirName(sessionId: string): string {
  return sessionId.replace(/[^A-Za-z0-9_.-]/g, '_');
}

/**
 * The tool definitions a model call offers: the same pool as execution — the session's tools minus
 * blanket deny rules and disabled tools. MCP tools are listed here, in the model activity of each
 * turn (tools/list on the worker's connection): the schemas never travel through workflow history.
 */
function toolDefinitionsOf(
  mcp: McpManager,
  registry: AnyTool[],
  scopeOf: (s: McpSessionListing) => McpSessionScope | undefined,
): ModelDeps['toolDefinitions'] {
  return async (names, denyRules = [], session, warn) => {
    const listed = session
      ? await mcpToolsFor(mcp, session.servers, session.cwd, undefined, scopeOf(session))
      : undefined;
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
    // Which tools tool search may defer (src/toolProtocol/deferredTools.ts decides per request).
    return (await toolsToAPISchemas(pool)).map((s, i) => (pool[i]?.shouldDefer ? { ...s, deferrable: true } : s));
  };
}

/** A session's tool pool: the registry's tools it names, and its MCP servers' tools (in its scope). */
function sessionPoolOf(
  mcp: McpManager,
  registry: AnyTool[],
  scopeOf: (s: McpSessionListing) => McpSessionScope | undefined,
) {
  return async (toolNames: string[], permission: ToolPermissionContext, session?: SessionMcp) => {
    const mcpTools = session
      ? restrictMcpTools(
          toolNames,
          (await mcpToolsFor(mcp, session.servers, session.cwd, session.wanted, scopeOf(session))).tools,
        )
      : [];
    return createToolPool(
      registry.filter((t) => toolNames.includes(t.name)),
      permission,
      mcpTools.length > 0 ? { userTools: mcpTools } : {},
    );
  };
}

/** Where a session's large results are kept: the worker's disk, or the shared store too (a Read may run elsewhere). */
function resultStoreOf(storeDir: string, blobs: BlobStore, sessionId: string) {
  const root = resolve(storeDir, 'results');
  const dir = join(root, sessionDirName(sessionId));
  const store =
    baseBlobStore(blobs) instanceof LocalBlobStore
      ? new LocalResultStore(dir, root)
      : new SharedResultStore(dir, blobs, sessionId, undefined, root);
  // Results stored before the upgrade under a name other ids shared are never read (issue 30 round g):
  // the store names that directory only so that a refused Read says why.
  const legacy = legacySessionDirName(sessionId);
  if (join(root, legacy) !== store.dir) store.formerDir = join(root, legacy);
  return store;
}

/**
 * The cores of every call bound to the dependencies `opts` describes (real stores and clients
 * unless given), with those dependencies: the in-process runner's calls, and what the worker's
 * activities wrap.
 */
export function createCallDeps(opts: AgentDepsOptions = {}) {
  const storeDir = opts.storeDir ?? defaultStoreDir();
  const blobs = configuredBlobStore({
    storeDir,
    ...(opts.blobStore ? { blobStore: opts.blobStore } : {}),
    ...(opts.encryption !== undefined ? { encryption: opts.encryption } : {}),
  });
  // Agent is a built-in too, but it runs only where a scheduler starts child sessions (docs/architecture.md "Subagents").
  const registry: AnyTool[] = [...(opts.replaceBuiltins ? [] : DEFAULT_WORKER_TOOLS), ...(opts.tools ?? [])];
  // MCP servers: the worker owns the connections (started on first use, reused across calls and
  // sessions with the same config, restarted after a crash, closed by closeMcp / worker shutdown).
  const mcp = opts.mcp ?? new McpManager();
  const sandboxHost = opts.sandboxHost ?? new SandboxHost();
  // A session's stdio servers run in its sandbox (src/mcp/sandboxed.ts), denied the worker's state.
  const privatePaths = workerPrivatePaths(storeDir, blobs, opts.privatePaths);
  const scopeOf = (s: McpSessionListing) => mcpSessionScope(s, sandboxHost, privatePaths);
  const pool = sessionPoolOf(mcp, registry, scopeOf);
  const anthropic =
    opts.anthropic ??
    (() =>
      new Anthropic({
        ...(process.env.ANTHROPIC_BASE_URL ? { baseURL: process.env.ANTHROPIC_BASE_URL } : {}),
        maxRetries: 0,
      }));
  const transcripts = new TranscriptStore(blobs);
  const payloads = new PayloadStore(blobs);
  // One cache of the sessions' stored settings for the tool and the model calls.
  const toolSettings = new ToolSettingsStore(blobs);
  const stepStatics = new StepStaticsStore(blobs);
  const modelDeps: ModelDeps = {
    transcripts,
    payloads,
    toolSettings,
    stepStatics,
    anthropic,
    toolDefinitions: toolDefinitionsOf(mcp, registry, scopeOf),
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
  const deps: CallDeps = {
    model: modelDeps,
    compaction: compactDeps,
    tools: {
      pool,
      ledger: new ExecutionLedger(blobs),
      readFiles: new ReadFilesStore(blobs),
      toolSettings,
      stepStatics,
      transcripts,
      payloads,
      // With a store shared by several hosts, large results are kept there too (a Read may run elsewhere).
      privatePaths: workerPrivatePaths(storeDir, blobs, opts.privatePaths),
      sandboxHost,
      resultStore: (sessionId) => resultStoreOf(storeDir, blobs, sessionId),
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
  };
  const calls = createCalls(deps);
  // A model call describes the tool_use blocks it hands over (callModel's describeWith) with the same core.
  modelDeps.describeToolUses = (wire) => calls.describeToolUses(wire);
  return {
    ...calls,
    deps,
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
