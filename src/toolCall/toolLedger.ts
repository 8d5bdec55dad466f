// One tool call under the execution ledger (invariant 5), for any runner: a call whose record is
// in the ledger is handed back (never re-run), a non-idempotent call that started on a lost
// worker answers `unknown_outcome`, and any other call is marked 'started' right before the tool
// runs (the pipeline's beforeCall) and 'completed' with its record after — a cancelled call keeps
// 'started', as its outcome may be partial. An idempotent call skips the 'started' entry (issue 33:
// one store write fewer per call): a lost attempt of it is run again whatever the ledger says, and
// its record counts the activity's attempts instead. Around the pipeline: heartbeats with progress,
// cancellation into the tool's abort signal, and the control files the call wrote.
import { startHeartbeats, type Heartbeats } from '../runtime/heartbeat';
import type { CallRuntime } from '../runtime/runtime';
import { sessionRootOf, type AgentContext } from '../core/context';
import { registerWritableDirectories } from '../sandbox/sessionPlan';
import type { ToolUseBlock } from '../core/apiMessages';
import { errorResult, MAX_CONTROL_WRITES, type ToolCallRecord } from '../core/toolRecords';
import { inputForHistory, isStoredInput } from '../core/payloads';
import { AGENT_TOOL_NAMES, type SubagentResume } from '../core/subagents';
import type { ToolRunResult, ToolUseDescription } from '../core/turn';
import type { HooksConfig } from '../hooks';
import { writeTranscriptFile } from '../hooks/transcript';
import { hookProjectDir } from '../hooks/run';
import { controlPathSet, type ControlPathSet } from '../permissions/controlFiles';
import { controlChanges, snapshotControlFiles, type ControlSnapshot } from '../permissions/controlWrites';
import { describeToolUse } from './pipeline/describe';
import { recordFromOutcome } from './pipeline/outcomeRecords';
import { runToolPipeline } from './pipeline/toolPipeline';
import type { PipelineEnv, ToolUseOutcome } from './pipeline/types';
import type { LedgerEntry } from '../stores/executionLedger';
import { mergeReadFiles } from '../stores/readFilesStore';
import type { ResultStore, SideModel, ToolUseContext } from '../toolProtocol/Tool';
import { addModelUsage, callModelUsage, turnModelUsage, withModelUsage, type ModelUsage } from '../core/modelUsage';
import type { ToolPool } from '../toolProtocol/pool';
import { waitForStore } from '../runtime/storeWait';
import { TOOL_SEARCH_TOOL_NAME } from '../toolProtocol/deferredTools';
import type { RunToolUseInput, ToolDeps, ToolSessionSettings } from './toolTypes';
import {
  sessionMcp,
  sessionPermission,
  withTaskDirectory,
  withWorkerHooks,
  withWorkerPrivatePaths,
} from './toolSession';
import { deferredNotLoaded } from './offeredTools';

/** A tool call's input with the session's settings loaded (and the whole tool_use block). */
export type ResolvedRunInput = Omit<RunToolUseInput, 'session'> & { session: ToolSessionSettings };

/** What a runner adds to a call: how it runs a subagent in call() (the in-process runner). */
export interface RunExtra {
  runSubagent?: ToolUseContext['runSubagent'];
  /** The scheduler runs background tasks (default true: the session workflow and the in-process runner do). */
  backgroundTasks?: boolean;
  /** The scheduler runs Monitor tasks (default true; the in-process runner passes false for now). */
  monitorTasks?: boolean;
}

/** A call's end: a result for history, or (the Agent tool's pre phase) the state to start the child with. */
export type LedgerRunResult = ToolRunResult | { kind: 'ready'; resume: SubagentResume };

export function unknownOutcomeMessage(block: ToolUseBlock, summary: string): string {
  return (
    `The outcome of this ${block.name} call is unknown: the worker running it was lost (or shut down) while it ran, ` +
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

/** The tool call with its ledger: the answer the ledger already holds, or the pipeline run and recorded. */
export async function runWithLedger(
  deps: ToolDeps,
  input: ResolvedRunInput,
  ctx: CallRuntime,
  extra: RunExtra = {},
): Promise<LedgerRunResult> {
  const setup = await setUpCall(deps, input);
  const call = new LedgerCall(deps, input, ctx);
  const answered = await call.answerFromLedger(setup.description);
  if (answered) return answered;
  return call.run(setup, extra);
}

/** What a call needs before the ledger is asked: its agent context, pool, result store and description. */
interface CallSetup {
  agent: AgentContext;
  pool: ToolPool;
  resultStore: ResultStore;
  description: ToolUseDescription;
}

async function setUpCall(deps: ToolDeps, input: ResolvedRunInput): Promise<CallSetup> {
  const { session, block } = input;
  let agent = input.context;
  // The session's directories hold no program the worker runs outside the sandbox (src/hostProcess/door.ts).
  // Its `filesystem.allowWrite` directories too (red team K1): Grep's `rg` and worker-side git are looked up outside them.
  registerWritableDirectories(
    [sessionRootOf(agent), ...session.permission.workingDirectories],
    session.permission.sandbox,
  );
  if (input.readFilesRef) {
    if (!deps.readFiles) throw new Error('this worker has no read-file store');
    agent = { ...agent, readFiles: mergeReadFiles(await deps.readFiles.get(input.readFilesRef), agent.readFiles) };
  }
  // An MCP call gets its server's tools; ToolSearch searches every server's.
  const pool = await deps.pool(
    session.toolNames,
    session.permission,
    block.name.startsWith('mcp__')
      ? sessionMcp(session, block.name, input.context)
      : block.name === TOOL_SEARCH_TOOL_NAME
        ? sessionMcp(session, undefined, input.context)
        : undefined,
  );
  // A large result saved on another host (shared store) is recreated by Read, after its permission
  // decision, at this worker's own path of it only (src/stores/sharedResultStore.ts): nothing a tool
  // input names is written before the pipeline (invariant 2; issue 30 round f).
  const resultStore = deps.resultStore(session.sessionId);
  return { agent, pool, resultStore, description: describeToolUse(block, pool) };
}

/** One call's ledger entry: read, answered from, marked started, completed. */
class LedgerCall {
  /** Keyed per session, not per workflow id: a new session that reuses an id starts afresh. */
  private readonly ledgerKey: string;
  private readonly activityKey: string;
  private readonly block: ToolUseBlock;
  private attempts: LedgerEntry['attempts'] = [];
  private marked = false;
  /** The call is idempotent (its description): no 'started' entry, it may run again after a lost attempt. */
  private idempotent = false;

  constructor(
    private readonly deps: ToolDeps,
    private readonly input: ResolvedRunInput,
    private readonly ctx: CallRuntime,
  ) {
    this.block = input.block;
    this.activityKey = ctx.callKey;
    this.ledgerKey = input.session.ledgerKey ?? input.session.sessionId;
  }

  /** Ledger reads and writes wait out a store outage (storeWait.ts): what a call did must reach the ledger. */
  private stored<T>(what: string, op: () => Promise<T>): Promise<T> {
    return waitForStore(what, op, this.ctx, { details: { toolUseId: this.block.id } });
  }

  /**
   * The answer the ledger already holds for this tool_use_id: its record (the same activity
   * retried, or a repeated id: reused, never re-run), or `unknown_outcome` for a non-idempotent
   * call that started on a worker since lost. Undefined: the call runs.
   */
  async answerFromLedger(description: ToolUseDescription): Promise<ToolRunResult | undefined> {
    const { block, ledgerKey, activityKey } = this;
    const entry = await this.stored('reading the execution ledger', () => this.deps.ledger.get(ledgerKey, block.id));
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
      await this.stored('recording the unknown outcome', () =>
        this.deps.ledger.put(ledgerKey, block.id, { ...entry, state: 'completed', record, completedBy: activityKey }),
      );
      return { kind: 'done', record };
    }
    this.attempts = [...(entry?.attempts ?? [])];
    this.idempotent = description.idempotent;
    return undefined;
  }

  /**
   * The pipeline's beforeCall: the ledger says 'started' (once) before the side effect may begin.
   * An idempotent call's entry would only count its attempts (a lost attempt of it runs again
   * either way): it is not written, and the record counts the activity's attempts (`attemptCount`).
   */
  private readonly markStarted = async (): Promise<void> => {
    if (this.marked) return;
    this.marked = true;
    this.attempts.push({ activity: this.activityKey, attempt: this.ctx.attempt, at: Date.now() });
    if (this.idempotent) return;
    await this.stored('recording the call before it runs', () =>
      this.deps.ledger.put(this.ledgerKey, this.block.id, { state: 'started', attempts: this.attempts }),
    );
  };

  /** Runs the call through the pipeline, with heartbeats, and records its outcome. */
  async run(setup: CallSetup, extra: RunExtra): Promise<LedgerRunResult> {
    const { session } = this.input;
    const hooks = withWorkerHooks(this.deps.hooks, session.hooks);
    const permission = withWorkerPrivatePaths(
      sessionPermission(
        withTaskDirectory(session.permission, session.sessionId),
        setup.resultStore,
        hooks,
        hookProjectDir(session.hookPins, setup.agent),
        session.mcpServers,
      ),
      setup.resultStore,
      this.deps.privatePaths,
    );
    const watch = await ControlWatch.start(this.input, setup, permission.controlFiles, hooks);
    const progress = new ProgressBeats(this.ctx, this.block.id, this.deps);
    try {
      const outcome = await runToolPipeline(this.block, {
        ...this.pipelineEnv(setup, extra, hooks),
        permission,
        beforeCall: this.markStarted,
        onProgress: progress.report,
      });
      return await this.finish(outcome, setup.description, watch);
    } finally {
      progress.stop();
    }
  }

  /** The pipeline's environment, but for the permission, beforeCall and progress (run sets those). */
  private pipelineEnv(
    setup: CallSetup,
    extra: RunExtra,
    hooks: HooksConfig | undefined,
  ): Omit<PipelineEnv, 'permission'> {
    const { deps, input } = this;
    const { session } = input;
    return {
      pool: setup.pool,
      sessionId: session.sessionId,
      idempotencyScope: this.ledgerKey,
      agent: setup.agent,
      ...(hooks ? { hooks } : {}),
      ...(session.hookPins ? { hookPins: session.hookPins } : {}),
      resultStore: setup.resultStore,
      ...(deps.privatePaths ? { privatePaths: deps.privatePaths } : {}),
      ...(deps.sandboxHost ? { sandboxHost: deps.sandboxHost } : {}),
      abortSignal: this.ctx.signal,
      ...transcriptPathOption(deps, input, setup.agent),
      ...(session.agents ? { agents: session.agents } : {}),
      ...(session.skills ? { skills: session.skills } : {}),
      ...(session.agentHookFields ? { agentHookFields: session.agentHookFields } : {}),
      ...(extra.runSubagent ? { runSubagent: extra.runSubagent } : {}),
      backgroundTasks: extra.backgroundTasks ?? true,
      monitorTasks: extra.monitorTasks ?? true,
      ...(deps.sideModel ? { sideModel: this.countedSideModel(deps.sideModel) } : {}),
      ...(input.phase ? { phase: input.phase } : {}),
      ...deferredNotLoadedOption(deps, input),
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
    };
  }

  /** What the call's side model calls used (WebSearch, WebFetch), by model, cost included. */
  private sideUsage: ModelUsage | undefined;

  /** The worker's side model, each answer's usage counted for this call's record. */
  private countedSideModel(side: SideModel): SideModel {
    return {
      model: side.model,
      create: async (request, signal) => {
        const res = await side.create(request, signal);
        if (res.usage) {
          const spent = callModelUsage(side.model, res.usage);
          this.sideUsage = addModelUsage(this.sideUsage, spent);
          await this.ctx.chargeSideCall?.(spent);
        }
        return res;
      },
    };
  }

  /**
   * How many times call() may have started for this id: the attempts the ledger saw, and for an
   * idempotent call (no 'started' entry) at least this activity's attempt number — an earlier
   * attempt lost with its worker may have started it.
   */
  private attemptCount(): number {
    return Math.max(1, this.attempts.length, this.idempotent ? this.ctx.attempt : 0);
  }

  /** The outcome as the runner's result; a finished call's record goes into the ledger (a cancelled one's does not). */
  private async finish(
    outcome: ToolUseOutcome,
    description: ToolUseDescription,
    watch: ControlWatch,
  ): Promise<LedgerRunResult> {
    const { block, input } = this;
    if (outcome.status === 'ready' && outcome.ready) return { kind: 'ready', resume: outcome.ready };
    if (outcome.status === 'ask') {
      return {
        kind: 'ask',
        message: outcome.ask?.message ?? 'Permission required',
        ...(outcome.ask?.decisionReason ? { detail: JSON.stringify(outcome.ask.decisionReason) } : {}),
      };
    }
    // Spend of the call: its side calls, and an Agent call's whole child session (its result says).
    const spent = turnModelUsage(
      this.sideUsage,
      input.phase?.kind === 'post' ? input.phase.output.modelUsage : undefined,
      [],
    );
    const record: ToolCallRecord = withControlWrites(
      {
        ...recordFromOutcome(outcome, description.summary),
        attempts: this.attemptCount(),
        ...withModelUsage(spent),
      },
      [...(await watch.changes()), ...(input.phase?.kind === 'post' ? (input.phase.output.controlWrites ?? []) : [])],
    );
    for (const notice of record.notices ?? [])
      this.ctx.warn(`${block.name} ${block.id}: ${notice}`, {
        sessionId: input.session.sessionId,
        toolUseId: block.id,
      });
    if (outcome.status === 'interrupted' && this.ctx.signal.aborted) {
      // Cancelled: the workflow records the interruption itself; the ledger keeps 'started' (a non-idempotent call's) so a
      // later execution of the same id knows the outcome may be partial.
      return { kind: 'done', record };
    }
    await this.stored('recording the result', () =>
      this.deps.ledger.put(this.ledgerKey, block.id, {
        state: 'completed',
        attempts: this.attempts,
        record,
        completedBy: this.activityKey,
      }),
    );
    return { kind: 'done', record };
  }
}

/** A schema error of a deferred tool the model's request did not load says how to load it (toolCall/offeredTools.ts). */
function deferredNotLoadedOption(deps: ToolDeps, input: ResolvedRunInput): Pick<PipelineEnv, 'deferredNotLoaded'> {
  const { transcripts } = deps;
  const ref = input.messageRef;
  if (!transcripts || !ref) return {};
  return { deferredNotLoaded: (name) => deferredNotLoaded(transcripts, ref, name) };
}

/** Hooks get the conversation so far as a JSONL file (`transcript_path`), written only when a hook runs. */
function transcriptPathOption(
  deps: ToolDeps,
  input: ResolvedRunInput,
  agent: AgentContext,
): Pick<PipelineEnv, 'transcriptPath'> {
  const { transcriptFile, transcripts } = deps;
  if (!transcriptFile || !transcripts || !input.messageRef) return {};
  const { sessionId } = input.session;
  return {
    transcriptPath: async () => {
      const messages = await transcripts.load(input.messageRef ?? null);
      return writeTranscriptFile(transcriptFile(sessionId), messages, { sessionId, cwd: agent.cwd });
    },
  };
}

/**
 * The session's control files before and after the call (its hooks included): every write to one
 * is named in the record. A built-in read-only call with no hooks to run writes nothing (an MCP
 * server's read-only hint is its own word; an in-process Agent call runs its child session inside
 * it, whose writes the call then names).
 */
class ControlWatch {
  private constructor(
    private readonly controls: ControlPathSet,
    private readonly before: ControlSnapshot | undefined,
  ) {}

  static async start(
    input: ResolvedRunInput,
    setup: CallSetup,
    controlFiles: readonly string[] | undefined,
    hooks: HooksConfig | undefined,
  ): Promise<ControlWatch> {
    const { block, session } = input;
    const watch = !(
      setup.description.readOnly &&
      !hooks &&
      !block.name.startsWith('mcp__') &&
      !AGENT_TOOL_NAMES.includes(block.name)
    );
    const controls = controlPathSet(
      [...session.permission.workingDirectories, setup.agent.cwd, ...setup.agent.additionalDirectories],
      controlFiles,
    );
    return new ControlWatch(controls, watch ? await snapshotControlFiles(controls) : undefined);
  }

  /** The control-file writes since the start (none when the call was not watched). */
  async changes(): Promise<NonNullable<ToolCallRecord['controlWrites']>> {
    return this.before ? controlChanges(this.before, await snapshotControlFiles(this.controls)) : [];
  }
}

/** Heartbeats carrying the call's latest progress (its details end up in history: kept small). */
class ProgressBeats {
  private last: unknown = undefined;
  private readonly beats: Heartbeats;

  constructor(ctx: CallRuntime, toolUseId: string, deps: ToolDeps) {
    this.beats = startHeartbeats(() => ctx.heartbeat({ toolUseId, progress: this.last }), deps.heartbeats);
  }

  /**
   * Heartbeat details end up in history (a timed-out or cancelled attempt's last details): keep
   * them small. A report that leaves a field out (Bash sends `output` only when it changed)
   * keeps the earlier value, so a watcher polling now and then still sees the last output.
   */
  readonly report = (p: unknown): void => {
    const merged =
      isPlainObject(p) && isPlainObject(this.last) && !isStoredInput(this.last) ? { ...this.last, ...p } : p;
    this.last = inputForHistory(merged);
    this.beats.progress();
  };

  stop(): void {
    this.beats.stop();
  }
}
