// One tool call for any scheduler (the core of the tool activities, and the in-process runner's):
// the one pipeline (invariant 2) with what a durable runner needs around it — heartbeats with
// progress, cancellation into the tool's abort signal, and the execution ledger that keeps a
// completed or lost call from running twice (invariant 5: toolLedger.ts). No Temporal here: the
// runner's CallRuntime comes in as an argument (src/temporal/activities/tools.ts passes the activity's).
// This file: the calls' inputs and dependencies, describing calls, the Agent tool's two phases,
// and what goes back into history.
import { loadShellParser } from '../permissions/bashParser';
import type { CallRuntime } from '../runtime/runtime';
import type { AgentContext } from '../core/context';
import type { ToolUseBlock } from '../core/apiMessages';
import { askMessageForHistory, findToolUse, recordForHistory } from '../core/payloads';
import type { ToolRunResult, ToolUseDescription } from '../core/turn';
import { describeToolUse } from './pipeline/describe';
import { hookProjectDir } from '../hooks/run';
import type { ReadFiles } from '../stores/readFilesStore';
import type { ToolSettingsStore } from '../stores/toolSettingsStore';
import { findToolByName, type ToolPool } from '../toolProtocol/pool';
import { decidePermission } from '../permissions/decide';
import type { SubagentResume } from '../core/subagents';
import type { AgentInput } from '../tools/agent';
import { subagentPlan } from '../agents/plan';
import { waitForStore } from '../runtime/storeWait';
import { runWithLedger, type RunExtra } from './toolLedger';
import {
  sessionMcp,
  sessionPermission,
  withTaskDirectory,
  withWorkerHooks,
  withWorkerPrivatePaths,
} from './toolSession';
import type {
  FinishSubagentInput,
  RunToolUseInput,
  SubagentPrepared,
  ToolDeps,
  ToolSessionInput,
  ToolSessionSettings,
} from './toolTypes';

export type {
  FinishSubagentInput,
  RunToolUseInput,
  SessionMcp,
  SubagentPrepared,
  ToolDeps,
  ToolSessionInput,
  ToolSessionRef,
  ToolSessionSettings,
} from './toolTypes';
export type { StoredSettingsRef, StoredToolSettings } from '../stores/toolSettingsStore';
import type { StoredSettingsRef, StoredToolSettings } from '../stores/toolSettingsStore';

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
    ...(s.hookPins ? { hookPins: s.hookPins } : {}),
    ...(s.mcpServers ? { mcpServers: s.mcpServers } : {}),
    ...(s.agents ? { agents: s.agents } : {}),
    ...(s.skills ? { skills: s.skills } : {}),
    ...(session.agentHookFields ? { agentHookFields: session.agentHookFields } : {}),
  };
}

// Both schedulers plan an Agent call the same way (src/agents/plan.ts).
export { subagentPlan } from '../agents/plan';
export { sessionPermission, withResultDirectory, withTaskDirectory } from './toolSession';
export { unknownOutcomeMessage, withControlWrites } from './toolLedger';

/** Every tool call's core bound to the worker's dependencies. */
export function createToolCalls(deps: ToolDeps) {
  return {
    /** Concurrency safety, idempotency and summaries: needs tool code, so it is an activity. */
    describeToolUses: (wire: DescribeToolUsesInput) => describeToolUses(deps, wire),
    /** The tool call with its ledger, for any runner (a Temporal activity or the in-process one). */
    runToolCall: (input: RunToolUseInput, ctx: CallRuntime, extra: RunExtra = {}) =>
      runToolCall(deps, input, ctx, extra),
    /** Stores the read-file state at the end of a turn: the state at `base` plus the turn's entries. */
    storeReadFiles: async (input: { base: string | null; delta: ReadFiles }): Promise<string | null> => {
      if (!deps.readFiles) throw new Error('this worker has no read-file store');
      return deps.readFiles.put(input.base, input.delta);
    },
    /**
     * Stores the session's settings once per run; tool and model activities then carry the returned
     * reference. The answer is an object (a run recorded before issue 33 holds a bare key, whose blob
     * has no system prompt: its turns send the model's static settings inline).
     */
    storeToolSettings: async (settings: StoredToolSettings): Promise<StoredSettingsRef> => {
      if (!deps.toolSettings) throw new Error('this worker has no store for tool settings');
      return { settingsRef: await deps.toolSettings.put(settings) };
    },
    prepareSubagent: (input: RunToolUseInput, ctx: CallRuntime) => prepareSubagent(deps, input, ctx),
    finishSubagent: (input: FinishSubagentInput, ctx: CallRuntime) => finishSubagent(deps, input, ctx),
  };
}

/** The whole block: from the model call's stored message when the workflow sent a reference. */
async function wholeBlock(
  deps: ToolDeps,
  block: ToolUseBlock,
  messageRef: string | null | undefined,
): Promise<ToolUseBlock> {
  if (!messageRef) return block;
  if (!deps.transcripts) throw new Error('this worker has no transcript store to read tool inputs from');
  const found = findToolUse(await deps.transcripts.nodeMessages(messageRef), block.id);
  if (!found) throw new Error(`tool_use ${block.id} is not in the stored model message ${messageRef}`);
  return found;
}

/** What goes back into history: the result stored, a reference and a preview returned. */
async function forHistory(deps: ToolDeps, result: ToolRunResult, ctx: CallRuntime): Promise<ToolRunResult> {
  if (result.kind === 'ask') return { ...result, message: askMessageForHistory(result.message) };
  if (!deps.payloads || result.record.resultRef) return result;
  const { payloads } = deps;
  const ref = await waitForStore('storing the result block', () => payloads.putToolResult(result.record.result), ctx, {
    details: { toolUseId: result.record.toolUseId },
  });
  return { kind: 'done', record: recordForHistory(result.record, ref) };
}

/** The tool call with its ledger, for any runner (a Temporal activity or the in-process one). */
async function runToolCall(
  deps: ToolDeps,
  input: RunToolUseInput,
  ctx: CallRuntime,
  extra: RunExtra,
): Promise<ToolRunResult> {
  const r = await runWithLedger(
    deps,
    {
      ...input,
      session: await resolveToolSession(input.session, deps.toolSettings),
      block: await wholeBlock(deps, input.block, input.messageRef),
    },
    ctx,
    extra,
  );
  if (r.kind === 'ready')
    throw new Error(`${input.block.name} must run in two phases here (prepareSubagent, finishSubagent)`);
  return forHistory(deps, r, ctx);
}

export interface DescribeToolUsesInput {
  session: ToolSessionInput;
  blocks: ToolUseBlock[];
  messageRef?: string | null;
  /** Per block, in place of `messageRef`: blocks streamed one by one each live in a node of their own. */
  messageRefs?: Array<string | null>;
  context?: AgentContext;
}

/** Concurrency safety, idempotency and summaries (and whether rules and mode will ask), per block. */
async function describeToolUses(deps: ToolDeps, wire: DescribeToolUsesInput): Promise<ToolUseDescription[]> {
  const session = await resolveToolSession(wire.session, deps.toolSettings);
  const poolFor = describePools(deps, session, wire.context);
  await loadShellParser(); // Bash's read-only/concurrency answers need the parser
  return Promise.all(
    wire.blocks.map(async (light, i) => {
      const b = await wholeBlock(deps, light, wire.messageRefs ? wire.messageRefs[i] : wire.messageRef);
      const pool = await poolFor(b.name);
      const d = { ...describeToolUse(b, pool), toolUseId: b.id };
      if (!d.known || !wire.context) return d;
      return (await mayAsk(deps, session, wire.context, b, pool)) ? { ...d, mayAsk: true } : d;
    }),
  );
}

/** The pools that describe a batch: MCP tools get their own server's, other tools share one pool without MCP. */
function describePools(
  deps: ToolDeps,
  session: ToolSessionSettings,
  context?: AgentContext,
): (name: string) => Promise<ToolPool> {
  const pools = new Map<string, Promise<ToolPool>>();
  return (name) => {
    const key = name.startsWith('mcp__') ? name : '';
    let p = pools.get(key);
    if (!p) {
      const full = Promise.resolve(
        deps.pool(session.toolNames, session.permission, key ? sessionMcp(session, key, context) : undefined),
      );
      // This is a local activity with a short timeout: a server slow to start makes its tool
      // "unknown" here (unsafe: it runs alone); the call itself waits for the server.
      p = key ? raceTimeout(full, DESCRIBE_MCP_WAIT_MS, () => deps.pool(session.toolNames, session.permission)) : full;
      pools.set(key, p);
    }
    return p;
  };
}

/**
 * Will the call ask? Rules and mode only (hooks run with the call): enough to hold back the calls
 * after it in its batch until a human decides. A block that fails its schema does not ask here.
 */
async function mayAsk(
  deps: ToolDeps,
  session: ToolSessionSettings,
  context: AgentContext,
  b: ToolUseBlock,
  pool: ToolPool,
): Promise<boolean> {
  try {
    const tool = findToolByName(pool, b.name);
    const parsed = tool?.inputSchema.safeParse(b.input);
    if (!tool || !parsed?.success) return false;
    const decision = await decidePermission(tool, parsed.data, {
      sessionId: session.sessionId,
      toolUseId: b.id,
      idempotencyKey:
        session.ledgerKey && session.ledgerKey !== session.sessionId
          ? `${session.sessionId}/${session.ledgerKey}/${b.id}`
          : `${session.sessionId}/${b.id}`,
      agent: context,
      permission: withWorkerPrivatePaths(
        sessionPermission(
          withTaskDirectory(session.permission, session.sessionId),
          deps.resultStore(session.sessionId),
          withWorkerHooks(deps.hooks, session.hooks),
          hookProjectDir(session.hookPins, context),
          session.mcpServers,
        ),
        deps.resultStore(session.sessionId),
        deps.privatePaths,
      ),
      abortSignal: new AbortController().signal,
    });
    return decision.behavior === 'ask';
  } catch {
    return false;
  }
}

/**
 * The Agent tool's pre-call phase (schema → validateInput → PreToolUse hooks → permission) as an
 * activity: a recorded result, an `ask`, a failure, or the resolved child session to start.
 */
async function prepareSubagent(deps: ToolDeps, input: RunToolUseInput, ctx: CallRuntime): Promise<SubagentPrepared> {
  const block = await wholeBlock(deps, input.block, input.messageRef);
  const session = await resolveToolSession(input.session, deps.toolSettings);
  const r = await runWithLedger(deps, { ...input, session, block, phase: { kind: 'pre' } }, ctx);
  if (r.kind !== 'ready') return forHistory(deps, r, ctx);
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
async function finishSubagent(deps: ToolDeps, input: FinishSubagentInput, ctx: CallRuntime): Promise<ToolRunResult> {
  const output = { ...input.output, text: (await finalText(deps, input.childHead)) ?? input.output.text };
  return runToolCall(deps, { ...input, phase: { kind: 'post', resume: input.resume, output } }, ctx, {});
}

/** The last assistant text of a transcript node (the child's final answer), whole. */
async function finalText(deps: ToolDeps, head: string | null | undefined): Promise<string | undefined> {
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
