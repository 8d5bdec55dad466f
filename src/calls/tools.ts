// One tool call for any scheduler (the core of the tool activities, and the in-process runner's):
// the one pipeline (invariant 2) with what a durable runner needs around it — heartbeats with
// progress, cancellation into the tool's abort signal, and the execution ledger that keeps a
// completed or lost call from running twice (invariant 5). No Temporal here: the runner's
// CallRuntime comes in as an argument (src/activities/tools.ts passes the activity's).
import { startHeartbeats, type HeartbeatPolicy } from './heartbeat';
import { loadShellParser } from '../permissions/bashParser';
import type { CallRuntime } from './runtime';
import type { AgentContext } from '../engine/context';
import type { ToolUseBlock } from '../engine/messages';
import { errorResult, type ToolCallRecord } from '../engine/records';
import {
  askMessageForHistory,
  findToolUse,
  inputForHistory,
  isStoredInput,
  recordForHistory,
} from '../engine/payloads';
import type { Approval, ToolRunResult, ToolUseDescription } from '../engine/turn';
import { runToolPipeline } from '../pipeline/toolPipeline';
import type { SandboxHost } from '../sandbox/host';
import { describeToolUse } from '../pipeline/describe';
import { recordFromOutcome } from '../pipeline/records';
import type { HooksConfig } from '../hooks';
import type { AgentHookFields } from '../hooks/types';
import { writeTranscriptFile } from '../hooks/transcript';
import { hookCommandsOf } from '../hooks/config';
import { existsSync } from 'node:fs';
import { hookControlFiles, mcpServerControlFiles } from '../permissions/protectedPaths';
import { stdioCommands } from '../mcp/pins';
import type { ExecutionLedger } from '../stores/executionLedger';
import type { TranscriptStore } from '../stores/messageStore';
import type { PayloadStore } from '../stores/payloadStore';
import { mergeReadFiles, type ReadFiles, type ReadFilesStore } from '../stores/readFilesStore';
import { inputPaths } from '../stores/sharedResultStore';
import type { ToolSettingsStore } from '../stores/toolSettingsStore';
import type { PermissionMode } from '../tools/permissionTypes';
import type { ResultStore } from '../tools/Tool';
import { findToolByName, type ToolPool } from '../tools/pool';
import { decidePermission } from '../permissions/decide';
import type { ToolPermissionContext } from '../tools/permissionTypes';
import type { McpServers } from '../mcp/config';
import { controlPathSet } from '../permissions/controlFiles';
import { controlChanges, snapshotControlFiles } from '../permissions/controlWrites';
import { MAX_CONTROL_WRITES } from '../engine/records';

/** A session's MCP servers as the pool needs them: the config, the cwd servers start in, and (for a call) the tool wanted. */
export interface SessionMcp {
  servers: McpServers;
  cwd: string;
  /** Only this tool's server is listed (a call); a failed server yields a stand-in answering with the failure. */
  wanted?: string;
}

/** How long describing an MCP call waits for its server's tool list. */
const DESCRIBE_MCP_WAIT_MS = 10_000;

async function raceTimeout<T>(p: Promise<T>, ms: number, fallback: () => T | Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((r) => {
    timer = setTimeout(() => r('late'), ms);
  });
  try {
    const r = await Promise.race([p, late]);
    return r === 'late' ? await fallback() : (r as T);
  } finally {
    clearTimeout(timer);
  }
}

function sessionMcp(session: ToolSessionSettings, wanted?: string): SessionMcp | undefined {
  if (!session.mcpServers || Object.keys(session.mcpServers).length === 0) return undefined;
  return {
    servers: session.mcpServers,
    cwd: session.permission.workingDirectories[0] ?? process.cwd(),
    ...(wanted !== undefined ? { wanted } : {}),
  };
}
import type { PipelinePhase } from '../pipeline/types';
import type { AgentDefinition } from '../agents/definitions';
import { AGENT_TOOL_NAMES, type SubagentCall, type SubagentOutput, type SubagentResume } from '../engine/subagents';
import type { AgentInput } from '../tools/builtin/agent';
import { subagentPlan } from '../agents/plan';
import type { ToolUseContext } from '../tools/Tool';
import { waitForStore } from './storeWait';

/** The pre-call phase of a call the scheduler runs itself: ready to start the child session. */
export type SubagentPrepared = ToolRunResult | { kind: 'ready'; call: SubagentCall };

export interface ToolSessionSettings {
  sessionId: string;
  /**
   * Keys the execution ledger: unique per session (the session's first run id under Temporal),
   * so that a session reusing an earlier session's id never meets its records. Default: sessionId.
   */
  ledgerKey?: string;
  toolNames: string[];
  permission: ToolPermissionContext;
  hooks?: HooksConfig;
  /** The session's MCP servers (unexpanded: `${VAR}` expands on the worker); their tools join the pool. */
  mcpServers?: McpServers;
  /** The session's agent types (the Agent tool); absent = general-purpose only. */
  agents?: AgentDefinition[];
  /** A subagent's session: what every hook input carries besides the common fields (parent session_id, agent_id, agent_type). */
  agentHookFields?: AgentHookFields;
}

/**
 * What a session's tool activities share and the session stores once per run (ToolSettingsStore):
 * its tool names, rules, sandbox, hooks, MCP server configs and agent definitions.
 */
export interface StoredToolSettings {
  toolNames: string[];
  rules: ToolPermissionContext['rules'];
  sandbox?: ToolPermissionContext['sandbox'];
  hooks?: HooksConfig;
  mcpServers?: McpServers;
  agents?: AgentDefinition[];
}

/**
 * The session's tool settings by reference, as a tool activity's input carries them (the session
 * stored them: TOOL_SETTINGS_REF_PATCH); what varies per turn (mode, working directories) and per
 * subagent (its hook fields) stays inline.
 */
export interface ToolSessionRef {
  sessionId: string;
  ledgerKey?: string;
  /** The `toolsettings-<sha256>` blob of the session's StoredToolSettings. */
  settingsRef: string;
  mode: PermissionMode;
  workingDirectories: string[];
  agentHookFields?: AgentHookFields;
}

/** A tool activity's session: whole (histories before the patch, the in-process runner) or by reference. */
export type ToolSessionInput = ToolSessionSettings | ToolSessionRef;

/** The whole settings of a session given either way (a reference is loaded from the store, cached per worker). */
export async function resolveToolSession(
  session: ToolSessionInput,
  store: ToolSettingsStore | undefined,
): Promise<ToolSessionSettings> {
  if (!('settingsRef' in session)) return session;
  if (!store) throw new Error("this worker has no store to read the session's tool settings from");
  const s = await store.get(session.settingsRef);
  return {
    sessionId: session.sessionId,
    ...(session.ledgerKey ? { ledgerKey: session.ledgerKey } : {}),
    toolNames: s.toolNames,
    permission: {
      mode: session.mode,
      rules: s.rules,
      workingDirectories: session.workingDirectories,
      ...(s.sandbox ? { sandbox: s.sandbox } : {}),
    },
    ...(s.hooks ? { hooks: s.hooks } : {}),
    ...(s.mcpServers ? { mcpServers: s.mcpServers } : {}),
    ...(s.agents ? { agents: s.agents } : {}),
    ...(session.agentHookFields ? { agentHookFields: session.agentHookFields } : {}),
  };
}

export interface RunToolUseInput {
  session: ToolSessionInput;
  /** With `messageRef`: only `id` and `name` count (the input may be a preview); the block is read from the store. */
  block: ToolUseBlock;
  /** The model call's transcript node, which holds the whole tool_use block (payloads by reference). */
  messageRef?: string | null;
  /** Under Temporal: `context.readFiles` holds only this turn's entries; the rest is in the store under this reference. */
  context: AgentContext;
  readFilesRef?: string | null;
  approval?: Approval;
  /** The half of the pipeline to run for a call the scheduler executes itself (see PipelinePhase). */
  phase?: PipelinePhase;
}

export interface ToolDeps {
  /** The session's pool: the named tools of the worker's registry, filtered by deny rules and isEnabled. */
  pool: (toolNames: string[], permission: ToolPermissionContext, mcp?: SessionMcp) => ToolPool | Promise<ToolPool>;
  ledger: ExecutionLedger;
  /** Where the session's read-file state lives between turns (required to resolve `readFilesRef`). */
  readFiles?: ReadFilesStore;
  resultStore: (sessionId: string) => ResultStore;
  /** The worker's own state, kept from sandboxed Bash (the store, the data directory, a dev server's database). */
  privatePaths?: readonly string[];
  /** Bash's OS sandbox on this worker (the worker's start-up owns it). */
  sandboxHost?: SandboxHost;
  /** Where the model's messages are: tool inputs are read from there (`messageRef`), not from history. */
  transcripts?: TranscriptStore;
  /** Where result blocks are stored: an activity returns a reference and a preview, not the whole result. */
  payloads?: PayloadStore;
  /** Hooks the worker adds programmatically (library users), merged with the session's. */
  hooks?: HooksConfig;
  /** When tool calls heartbeat (default TOOL_HEARTBEATS: on progress, else a keepalive after 300 ms and every 500 ms). */
  heartbeats?: HeartbeatPolicy;
  /** Where a session's tool settings are stored once (tool activities get a reference: `settingsRef`). */
  toolSettings?: ToolSettingsStore;
  /** Where a session's transcript JSONL is written for hooks (`transcript_path`). */
  transcriptFile?: (sessionId: string) => string;
  /** Model calls tools make themselves (WebFetch, WebSearch): the worker's client and small, fast model. */
  sideModel?: ToolUseContext['sideModel'];
}

/** The Agent call's post-call phase: the pre phase's state, the child's output and its transcript head. */
export type FinishSubagentInput = RunToolUseInput & {
  resume: SubagentResume;
  output: SubagentOutput;
  childHead?: string | null;
};

/** A tool call's input with the session's settings loaded. */
type ResolvedRunInput = Omit<RunToolUseInput, 'session'> & { session: ToolSessionSettings };

/**
 * The permission context a session's tool calls see: its result directory counts as a working
 * directory (see withResultDirectory), a session whose input says nothing about the sandbox
 * gets the default sandbox settings (`{}`: Bash sandboxed where the platform supports it), and
 * the files its command hooks and its stdio MCP servers run are protected paths (`controlFiles`,
 * from the hooks of the session's settings, resolved against the session's cwd and the project
 * root, and from the servers' command lines, resolved where the worker starts them).
 */
export function sessionPermission(
  permission: ToolPermissionContext,
  store: ResultStore,
  hooks?: HooksConfig,
  cwd?: string,
  mcpServers?: McpServers,
): ToolPermissionContext {
  const p = withResultDirectory(permission, store);
  const commands = hookCommandsOf(hooks);
  const bases = [...new Set([...(cwd ? [cwd] : []), ...permission.workingDirectories.slice(0, 1)])];
  const controlFiles = [
    ...new Set([
      ...bases.flatMap((b) => hookControlFiles(commands, b, permission.workingDirectories)),
      // The scripts the session's stdio MCP servers run: the worker starts them (unsandboxed) in the session's first working directory.
      ...mcpServerControlFiles(
        stdioCommands(mcpServers),
        permission.workingDirectories[0] ?? cwd ?? process.cwd(),
        permission.workingDirectories,
        undefined,
        existsSync,
      ),
    ]),
  ];
  const withFiles =
    controlFiles.length > 0 ? { ...p, controlFiles: [...new Set([...(p.controlFiles ?? []), ...controlFiles])] } : p;
  return withFiles.sandbox ? withFiles : { ...withFiles, sandbox: {} };
}

/**
 * Large results are stored outside the working directory and the model is told to Read them:
 * the session's own result directory counts as a working directory, so that Read never asks.
 */
export function withResultDirectory(permission: ToolPermissionContext, store: ResultStore): ToolPermissionContext {
  const dir = (store as { dir?: unknown }).dir;
  return typeof dir === 'string' && !permission.workingDirectories.includes(dir)
    ? { ...permission, workingDirectories: [...permission.workingDirectories, dir] }
    : permission;
}

export function unknownOutcomeMessage(block: ToolUseBlock, summary: string): string {
  return (
    `The outcome of this ${block.name} call is unknown: the worker running it was lost while it ran, ` +
    `and it was not re-run because ${block.name} is not idempotent. The call was: ${summary} ` +
    `(input ${inputPreview(block.input)}). Check the current state before deciding whether to run it again.`
  );
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function inputPreview(input: unknown): string {
  const json = JSON.stringify(input) ?? 'undefined';
  return json.length > 1000 ? `${json.slice(0, 999)}… (${json.length} characters)` : json;
}

/** The record with the control files the call changed (at most MAX_CONTROL_WRITES; a notice counts the rest). */
export function withControlWrites(
  record: ToolCallRecord,
  writes: NonNullable<ToolCallRecord['controlWrites']>,
): ToolCallRecord {
  if (writes.length === 0) return record;
  const seen = new Set<string>();
  writes = writes.filter((w) => !seen.has(`${w.change} ${w.path}`) && seen.add(`${w.change} ${w.path}`) !== undefined);
  const more = writes.length - MAX_CONTROL_WRITES;
  return {
    ...record,
    controlWrites: writes.slice(0, MAX_CONTROL_WRITES),
    ...(more > 0
      ? { notices: [...(record.notices ?? []), `${more} more control-file changes during this call are not listed`] }
      : {}),
  };
}

// Both schedulers plan an Agent call the same way (src/agents/plan.ts).
export { subagentPlan } from '../agents/plan';

export function createToolCalls(deps: ToolDeps) {
  /** The whole block: from the model call's stored message when the workflow sent a reference. */
  const wholeBlock = async (block: ToolUseBlock, messageRef: string | null | undefined): Promise<ToolUseBlock> => {
    if (!messageRef) return block;
    if (!deps.transcripts) throw new Error('this worker has no transcript store to read tool inputs from');
    const found = findToolUse(await deps.transcripts.nodeMessages(messageRef), block.id);
    if (!found) throw new Error(`tool_use ${block.id} is not in the stored model message ${messageRef}`);
    return found;
  };
  /** What goes back into history: the result stored, a reference and a preview returned. */
  const forHistory = async (result: ToolRunResult, ctx: CallRuntime): Promise<ToolRunResult> => {
    if (result.kind === 'ask') return { ...result, message: askMessageForHistory(result.message) };
    if (!deps.payloads || result.record.resultRef) return result;
    const { payloads } = deps;
    const ref = await waitForStore(
      'storing the result block',
      () => payloads.putToolResult(result.record.result),
      ctx,
      { details: { toolUseId: result.record.toolUseId } },
    );
    return { kind: 'done', record: recordForHistory(result.record, ref) };
  };

  const mergeHooks = (session?: HooksConfig): HooksConfig | undefined => {
    if (!deps.hooks) return session;
    if (!session) return deps.hooks;
    const out: HooksConfig = { ...session };
    for (const [event, matchers] of Object.entries(deps.hooks) as Array<
      [keyof HooksConfig, HooksConfig[keyof HooksConfig]]
    >) {
      (out as Record<string, unknown>)[event] = [
        ...((session[event] as unknown[]) ?? []),
        ...((matchers as unknown[]) ?? []),
      ];
    }
    return out;
  };

  /** Concurrency safety, idempotency and summaries: needs tool code, so it is an activity. */
  async function describeToolUses(wire: {
    session: ToolSessionInput;
    blocks: ToolUseBlock[];
    messageRef?: string | null;
    /** Per block, in place of `messageRef`: blocks streamed one by one each live in a node of their own. */
    messageRefs?: Array<string | null>;
    context?: AgentContext;
  }): Promise<ToolUseDescription[]> {
    const input = { ...wire, session: await resolveToolSession(wire.session, deps.toolSettings) };
    const pools = new Map<string, Promise<ToolPool>>();
    const poolFor = (name: string): Promise<ToolPool> => {
      // MCP tools: only the server of the named tool is listed; other tools share one pool without MCP.
      const key = name.startsWith('mcp__') ? name : '';
      let p = pools.get(key);
      if (!p) {
        const full = Promise.resolve(
          deps.pool(
            input.session.toolNames,
            input.session.permission,
            key ? sessionMcp(input.session, key) : undefined,
          ),
        );
        // This is a local activity with a short timeout: a server slow to start makes its tool
        // "unknown" here (unsafe: it runs alone); the call itself waits for the server.
        p = key
          ? raceTimeout(full, DESCRIBE_MCP_WAIT_MS, () => deps.pool(input.session.toolNames, input.session.permission))
          : full;
        pools.set(key, p);
      }
      return p;
    };
    await loadShellParser(); // Bash's read-only/concurrency answers need the parser
    return Promise.all(
      input.blocks.map(async (light, i) => {
        const b = await wholeBlock(light, input.messageRefs ? input.messageRefs[i] : input.messageRef);
        const pool = await poolFor(b.name);
        const d = { ...describeToolUse(b, pool), toolUseId: b.id };
        if (!d.known || !input.context) return d;
        // Will it ask? Rules and mode only (hooks run with the call): enough to hold back the
        // calls after it in its batch until a human decides.
        try {
          const tool = findToolByName(pool, b.name);
          const parsed = tool?.inputSchema.safeParse(b.input);
          if (!tool || !parsed?.success) return d;
          const decision = await decidePermission(tool, parsed.data, {
            sessionId: input.session.sessionId,
            toolUseId: b.id,
            idempotencyKey:
              input.session.ledgerKey && input.session.ledgerKey !== input.session.sessionId
                ? `${input.session.sessionId}/${input.session.ledgerKey}/${b.id}`
                : `${input.session.sessionId}/${b.id}`,
            agent: input.context,
            permission: sessionPermission(
              input.session.permission,
              deps.resultStore(input.session.sessionId),
              mergeHooks(input.session.hooks),
              input.context.cwd,
              input.session.mcpServers,
            ),
            abortSignal: new AbortController().signal,
          });
          return decision.behavior === 'ask' ? { ...d, mayAsk: true } : d;
        } catch {
          return d;
        }
      }),
    );
  }

  /**
   * The Agent tool's pre-call phase (schema → validateInput → PreToolUse hooks → permission) as an
   * activity: a recorded result, an `ask`, a failure, or the resolved child session to start.
   */
  async function prepareSubagent(input: RunToolUseInput, ctx: CallRuntime): Promise<SubagentPrepared> {
    const block = await wholeBlock(input.block, input.messageRef);
    const session = await resolveToolSession(input.session, deps.toolSettings);
    const r = await runWithLedger({ ...input, session, block, phase: { kind: 'pre' } }, ctx);
    if (r.kind !== 'ready') return forHistory(r, ctx);
    const plan = subagentPlan(r.resume.input as AgentInput, session);
    const { dropped, ...call } = plan;
    const resume: SubagentResume = dropped.length
      ? {
          ...r.resume,
          notices: [
            ...r.resume.notices,
            `The ${plan.agentType} agent lists tools this session does not offer; it runs without them: ${dropped.join(', ')}`,
          ],
        }
      : r.resume;
    return { kind: 'ready', call: { ...call, resume } };
  }

  /** The post-call phase: the child's final text (whole, from its transcript) through result mapping, size policy, PostToolUse hooks; recorded in the ledger. */
  async function finishSubagent(input: FinishSubagentInput, ctx: CallRuntime): Promise<ToolRunResult> {
    const output = { ...input.output, text: (await finalText(input.childHead)) ?? input.output.text };
    return runToolCall({ ...input, phase: { kind: 'post', resume: input.resume, output } }, ctx);
  }

  /** The last assistant text of a transcript node (the child's final answer), whole. */
  async function finalText(head: string | null | undefined): Promise<string | undefined> {
    if (!head || !deps.transcripts) return undefined;
    const messages = await deps.transcripts.nodeMessages(head);
    // The last assistant message that says something (a child stopped by a limit may end on tool_use blocks), as the session's lastText.
    for (const m of [...messages].reverse()) {
      if (m.role !== 'assistant') continue;
      const text =
        typeof m.content === 'string'
          ? m.content
          : m.content
              .filter((b) => b.type === 'text')
              .map((b) => (b as { text: string }).text)
              .join('\n');
      if (text.trim() !== '') return text;
    }
    return undefined;
  }

  /** Stores the session's tool settings once per run; tool activities then carry the returned reference. */
  async function storeToolSettings(settings: StoredToolSettings): Promise<string> {
    if (!deps.toolSettings) throw new Error('this worker has no store for tool settings');
    return deps.toolSettings.put(settings);
  }

  /** Stores the read-file state at the end of a turn: the state at `base` plus the turn's entries. */
  async function storeReadFiles(input: { base: string | null; delta: ReadFiles }): Promise<string | null> {
    if (!deps.readFiles) throw new Error('this worker has no read-file store');
    return deps.readFiles.put(input.base, input.delta);
  }

  /** The tool call with its ledger, for any runner (a Temporal activity or the in-process one). */
  async function runToolCall(
    input: RunToolUseInput,
    ctx: CallRuntime,
    extra: { runSubagent?: ToolUseContext['runSubagent'] } = {},
  ): Promise<ToolRunResult> {
    const r = await runWithLedger(
      {
        ...input,
        session: await resolveToolSession(input.session, deps.toolSettings),
        block: await wholeBlock(input.block, input.messageRef),
      },
      ctx,
      extra,
    );
    if (r.kind === 'ready')
      throw new Error(`${input.block.name} must run in two phases here (prepareSubagent, finishSubagent)`);
    return forHistory(r, ctx);
  }

  async function runWithLedger(
    input: ResolvedRunInput,
    ctx: CallRuntime,
    extra: { runSubagent?: ToolUseContext['runSubagent'] } = {},
  ): Promise<ToolRunResult | { kind: 'ready'; resume: SubagentResume }> {
    const { session, block } = input;
    let agent = input.context;
    if (input.readFilesRef) {
      if (!deps.readFiles) throw new Error('this worker has no read-file store');
      agent = { ...agent, readFiles: mergeReadFiles(await deps.readFiles.get(input.readFilesRef), agent.readFiles) };
    }
    const activityKey = ctx.callKey;
    const pool = await deps.pool(
      session.toolNames,
      session.permission,
      block.name.startsWith('mcp__') ? sessionMcp(session, block.name) : undefined,
    );
    const resultStore = deps.resultStore(session.sessionId);
    // A large result saved on another host (shared store): recreate the file the model asks to Read.
    const materialize = (resultStore as { materialize?: (path: string) => Promise<boolean> }).materialize;
    if (materialize) for (const p of inputPaths(block.input)) await materialize.call(resultStore, p);
    const description = describeToolUse(block, pool);

    // Keyed per session, not per workflow id: a new session that reuses an id starts afresh.
    const ledgerKey = session.ledgerKey ?? session.sessionId;
    // Ledger reads and writes wait out a store outage (storeWait.ts): what a call did must reach the ledger.
    const stored = <T>(what: string, op: () => Promise<T>): Promise<T> =>
      waitForStore(what, op, ctx, { details: { toolUseId: block.id } });
    const entry = await stored('reading the execution ledger', () => deps.ledger.get(ledgerKey, block.id));
    if (entry?.state === 'completed' && entry.record) {
      // The same activity retried after its result was recorded: hand back the record whole.
      // Any other activity with this id (a repeated id in a later response): reuse, never re-run.
      return entry.completedBy === activityKey
        ? { kind: 'done', record: entry.record }
        : { kind: 'done', record: { ...entry.record, contextModifiers: [], reused: true } };
    }
    if (entry?.state === 'started' && !description.idempotent) {
      const record: ToolCallRecord = {
        toolUseId: block.id,
        toolName: block.name,
        input: block.input,
        summary: description.summary,
        status: 'unknown_outcome',
        result: errorResult(block.id, unknownOutcomeMessage(block, description.summary)),
        contextModifiers: [],
        attempts: entry.attempts.length,
        endedAt: Date.now(),
      };
      await stored('recording the unknown outcome', () =>
        deps.ledger.put(ledgerKey, block.id, { ...entry, state: 'completed', record, completedBy: activityKey }),
      );
      return { kind: 'done', record };
    }

    const attempts = [...(entry?.attempts ?? [])];
    let marked = false;
    const markStarted = async (): Promise<void> => {
      if (marked) return;
      marked = true;
      attempts.push({ activity: activityKey, attempt: ctx.attempt, at: Date.now() });
      await stored('recording the call before it runs', () =>
        deps.ledger.put(ledgerKey, block.id, { state: 'started', attempts }),
      );
    };

    // The session's control files before and after the call (its hooks included): every write to one is named in
    // the record. A built-in read-only call with no hooks to run writes nothing (an MCP server's read-only hint is its own
    // word; an in-process Agent call runs its child session inside it, whose writes the call then names).
    const permission = sessionPermission(
      session.permission,
      resultStore,
      mergeHooks(session.hooks),
      agent.cwd,
      session.mcpServers,
    );
    const watch = !(
      description.readOnly &&
      !mergeHooks(session.hooks) &&
      !block.name.startsWith('mcp__') &&
      !AGENT_TOOL_NAMES.includes(block.name)
    );
    const controls = controlPathSet(
      [...session.permission.workingDirectories, agent.cwd, ...agent.additionalDirectories],
      permission.controlFiles,
    );
    const controlsBefore = watch ? await snapshotControlFiles(controls) : undefined;

    let lastProgress: unknown = undefined;
    const beats = startHeartbeats(
      () => ctx.heartbeat({ toolUseId: block.id, progress: lastProgress }),
      deps.heartbeats,
    );
    try {
      const outcome = await runToolPipeline(block, {
        pool,
        sessionId: session.sessionId,
        idempotencyScope: ledgerKey,
        agent,
        permission,
        ...(mergeHooks(session.hooks) ? { hooks: mergeHooks(session.hooks) as HooksConfig } : {}),
        resultStore,
        ...(deps.privatePaths ? { privatePaths: deps.privatePaths } : {}),
        ...(deps.sandboxHost ? { sandboxHost: deps.sandboxHost } : {}),
        abortSignal: ctx.signal,
        beforeCall: markStarted,
        ...(deps.transcriptFile && deps.transcripts && input.messageRef
          ? {
              transcriptPath: async () => {
                const messages = await deps.transcripts!.load(input.messageRef ?? null);
                return writeTranscriptFile(deps.transcriptFile!(session.sessionId), messages, {
                  sessionId: session.sessionId,
                  cwd: agent.cwd,
                });
              },
            }
          : {}),
        ...(session.agents ? { agents: session.agents } : {}),
        ...(session.agentHookFields ? { agentHookFields: session.agentHookFields } : {}),
        ...(extra.runSubagent ? { runSubagent: extra.runSubagent } : {}),
        ...(deps.sideModel ? { sideModel: deps.sideModel } : {}),
        ...(input.phase ? { phase: input.phase } : {}),
        onProgress: (p) => {
          // Heartbeat details end up in history (a timed-out or cancelled attempt's last details): keep
          // them small. A report that leaves a field out (Bash sends `output` only when it changed)
          // keeps the earlier value, so a watcher polling now and then still sees the last output.
          const merged =
            isPlainObject(p) && isPlainObject(lastProgress) && !isStoredInput(lastProgress)
              ? { ...lastProgress, ...p }
              : p;
          lastProgress = inputForHistory(merged);
          beats.progress();
        },
        ...(input.approval
          ? {
              approval: {
                decision: input.approval.decision,
                source: input.approval.source,
                ...(input.approval.by ? { by: input.approval.by } : {}),
                ...(input.approval.reason ? { reason: input.approval.reason } : {}),
                ...(input.approval.afterMs !== undefined ? { afterMs: input.approval.afterMs } : {}),
              },
            }
          : {}),
      });
      if (outcome.status === 'ready' && outcome.ready) return { kind: 'ready', resume: outcome.ready };
      if (outcome.status === 'ask') {
        return {
          kind: 'ask',
          message: outcome.ask?.message ?? 'Permission required',
          ...(outcome.ask?.decisionReason ? { detail: JSON.stringify(outcome.ask.decisionReason) } : {}),
        };
      }
      const record: ToolCallRecord = withControlWrites(
        { ...recordFromOutcome(outcome, description.summary), attempts: Math.max(1, attempts.length) },
        [
          ...(controlsBefore ? controlChanges(controlsBefore, await snapshotControlFiles(controls)) : []),
          ...(input.phase?.kind === 'post' ? (input.phase.output.controlWrites ?? []) : []),
        ],
      );
      for (const notice of record.notices ?? [])
        ctx.warn(`${block.name} ${block.id}: ${notice}`, { sessionId: session.sessionId, toolUseId: block.id });
      if (outcome.status === 'interrupted' && ctx.signal.aborted) {
        // Cancelled: the workflow records the interruption itself; the ledger keeps 'started' so a
        // later execution of the same id knows the outcome may be partial.
        return { kind: 'done', record };
      }
      await stored('recording the result', () =>
        deps.ledger.put(ledgerKey, block.id, { state: 'completed', attempts, record, completedBy: activityKey }),
      );
      return { kind: 'done', record };
    } finally {
      beats.stop();
    }
  }

  return {
    describeToolUses,
    runToolCall,
    storeReadFiles,
    storeToolSettings,
    prepareSubagent,
    finishSubagent,
  };
}
