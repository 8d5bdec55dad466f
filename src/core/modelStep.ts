// A turn's model step, the one concept file (issue 32): written once for both schedulers, pure (the
// executor does the I/O: activities under Temporal, direct calls in-process).
// - The loop (`runModelStep`): call the model; if the call says the window is nearly full (auto) or
//   the API refused the prompt as too long (reactive), compact — a summarizing model call of its
//   own — and call again. A session never fails of its own length: only when compaction cannot make
//   the prompt fit does the step fail.
// - The step as both schedulers run it (`managedModelStep`): `model-<turn>` (and `model-<turn>-<k>`
//   after a compaction) and `compact-<n>`. The turn workflow runs each call as an activity
//   (src/temporal/workflows/modelStep.ts names its types for the workflow's activities), the
//   in-process runner calls the same cores directly. What the step only passes through (agent
//   definitions, MCP servers, hooks) is a type parameter: the core never reads it.
import type { BudgetLink } from './budget';
import { DurableAgentError } from './errors';
import { INITIAL_VIEW, type CompactionRecord, type ContextView } from './contextView';
import { sessionRootOf, type AgentContext, type HookPins } from './context';
import type { MessageByRef } from './payloads';
import { addUsage, type ContextSettings } from './contextWindow';
import { activityIds } from './ids';
import type { MemoryRef } from './memoryReminder';
import type { Message, Usage } from './apiMessages';
import { addModelUsage, type ModelUsage } from './modelUsage';
import type { ThinkingSetting } from './thinking';

export type CompactTrigger = 'auto' | 'reactive';

export type ModelAttempt<R> =
  | { kind: 'message'; result: R; view: ContextView }
  /** No answer: compact first. `view` may already hold newly cleared tool results. */
  | { kind: 'compact'; trigger: CompactTrigger; tokens: number; view: ContextView }
  | { kind: 'interrupted' };

export type CompactOutcome =
  | { kind: 'compacted'; view: ContextView; record: CompactionRecord }
  /** A PreCompact hook blocked an automatic compaction: the call goes ahead without it. */
  | { kind: 'blocked'; reason: string }
  | { kind: 'interrupted' };

export interface ModelStepExecutor<R> {
  /** `autoCompact: false` after a hook blocked it: send the request even above the threshold. */
  callModel(view: ContextView, attempt: number, opts: { autoCompact: boolean }): Promise<ModelAttempt<R>>;
  /** `n` is the session's compaction number; `attempt` > 0 means an earlier one this step did not suffice. */
  compact(
    view: ContextView,
    trigger: CompactTrigger,
    n: number,
    attempt: number,
    tokens: number,
  ): Promise<CompactOutcome>;
}

export const MAX_COMPACTIONS_PER_STEP = 3;

export class ContextOverflowError extends DurableAgentError {
  constructor(message: string) {
    super('CONTEXT_OVERFLOW', message);
  }
}

export type ModelStepResult<R> =
  | { kind: 'message'; result: R; view: ContextView; compactions: CompactionRecord[]; notices: string[] }
  | { kind: 'interrupted'; view: ContextView; compactions: CompactionRecord[]; notices: string[] };

/** A hook may hold back an automatic compaction, never one the API forced (the session must go on). */
export function hookMayBlock(trigger: CompactTrigger): boolean {
  return trigger === 'auto';
}

export async function runModelStep<R>(
  exec: ModelStepExecutor<R>,
  start: ContextView,
  maxCompactions = MAX_COMPACTIONS_PER_STEP,
): Promise<ModelStepResult<R>> {
  let view = start;
  let autoCompact = true;
  const compactions: CompactionRecord[] = [];
  const notices: string[] = [];
  for (let attempt = 0; ; attempt++) {
    const r = await exec.callModel(view, attempt, { autoCompact });
    if (r.kind === 'interrupted') return { kind: 'interrupted', view, compactions, notices };
    if (r.kind === 'message') return { kind: 'message', result: r.result, view: r.view, compactions, notices };
    view = r.view;
    if (compactions.length >= maxCompactions) {
      throw new ContextOverflowError(
        `the prompt is still too long for the model's window after ${compactions.length} compaction(s) (${r.tokens} tokens)`,
      );
    }
    const c = await exec.compact(view, r.trigger, view.compactions + 1, compactions.length, r.tokens);
    if (c.kind === 'interrupted') return { kind: 'interrupted', view, compactions, notices };
    if (c.kind === 'blocked') {
      notices.push(`PreCompact hook blocked auto-compaction: ${c.reason}`);
      autoCompact = false;
      continue;
    }
    view = c.view;
    compactions.push(c.record);
  }
}

/**
 * The session's sandbox settings as the engine carries them (src/sandbox/settings.ts
 * SandboxSettings; the pure engine names no other room, not even its types).
 */
export type EngineSandboxSettings = { passEnv?: string[] };

/**
 * A session's MCP servers as a model or compaction call lists them: started from the session's
 * project root (never the agent's current cwd), inside the session's sandbox (`sessionId`,
 * `sandbox`, `additionalDirectories`: absent in calls an earlier release scheduled — the host).
 */
export interface StepMcp<Mcp> {
  servers: Mcp;
  cwd: string;
  sessionId?: string;
  sandbox?: EngineSandboxSettings;
  additionalDirectories?: string[];
}

export interface ModelStepSettings {
  model: string;
  maxTokens: number;
  system?: string;
  temperature?: number;
  thinking?: ThinkingSetting;
}

/**
 * The previous model step's end-of-step writes (issue 33, a turn child of several steps): its tool
 * results appended to the transcript at `append.head` (by reference, payloads.ts ToolResultsByRef)
 * and its read files stored over `readFiles.base`. The next step's model call makes them before it
 * calls the model (the same content-addressed writes the turn's end makes), so a step that another
 * follows runs no write of its own.
 */
export interface StepWrites {
  append?: { head: string | null; messages: MessageByRef[] };
  readFiles?: { base: string | null; delta: AgentContext['readFiles'] };
}

/** The writes as the model call's input carries them: `append.head` absent when it is the call's `head` (issue 33). */
export interface StepWritesWire {
  append?: { head?: string | null; messages: MessageByRef[] };
  /** `delta` absent: no entry its base does not hold already (ReadFilesMemo). */
  readFiles?: { base: string | null; delta?: AgentContext['readFiles'] };
}

/** The carried writes for a call from `head`: the append's head left out when it is the same. */
export function stepWritesWire(carry: StepWrites, head: string | null): StepWritesWire {
  // A whole read's entry without `partial: false` (issue 33): the model activity puts it back.
  const readFiles = carry.readFiles
    ? {
        readFiles: {
          ...carry.readFiles,
          delta: Object.fromEntries(
            Object.entries(carry.readFiles.delta).map(([path, e]) => [path, e.partial ? e : { mtimeMs: e.mtimeMs }]),
          ),
        },
      }
    : {};
  if (!carry.append || carry.append.head !== head) return { ...carry, ...readFiles } as StepWritesWire;
  return { ...carry, ...readFiles, append: { messages: carry.append.messages } } as StepWritesWire;
}

/**
 * What a turn child knows of its stored read-file states (issue 33): the entries a model call was
 * sent over its base, under the key it answered, with those known of that base. A later call over
 * that key leaves out the entries equal to known ones — merged again they change nothing
 * (`mergeReadFiles` gives the same state, the same key) — so a step that re-reads the files of the
 * step before sends no read-file entries, only the base.
 */
export class ReadFilesMemo {
  private known: { ref: string; entries: Map<string, string> } | undefined;

  /** The call's writes without the read-file entries its base holds already. */
  wire<W extends StepWritesWire>(writes: W | undefined): W | undefined {
    const r = writes?.readFiles;
    const known = this.known;
    if (!writes || !r || !known || r.base !== known.ref) return writes;
    const all = Object.entries(r.delta ?? {});
    const delta = all.filter(([path, e]) => known.entries.get(path) !== JSON.stringify(e));
    if (delta.length === all.length) return writes;
    // No `delta` at all when every entry was known: the activity reads it as empty.
    return {
      ...writes,
      readFiles: { base: r.base, ...(delta.length > 0 ? { delta: Object.fromEntries(delta) } : {}) },
    };
  }

  /** The key a call answered for the writes it was sent (before `wire` left entries out). */
  learn(sent: StepWritesWire | undefined, ref: string | null | undefined): void {
    const r = sent?.readFiles;
    if (!r || !ref) return;
    const base = this.known && r.base === this.known.ref ? this.known.entries : new Map<string, string>();
    const entries = new Map(base);
    for (const [path, e] of Object.entries(r.delta ?? {})) entries.set(path, JSON.stringify(e));
    this.known = { ref, entries };
  }
}

/** What the step reads of a turn (the turn workflow's input has all of it). */
export interface ModelStepTurn<Agent, Mcp, Hooks> {
  sessionId: string;
  /** The tree's budget (core/budget.ts): each model call checks it and charges its root. */
  budget?: BudgetLink;
  turn: number;
  head: string | null;
  append: Message[];
  /** The previous step's writes, made by this step's model call (its `head` is then `append.head`). */
  carry?: StepWrites;
  memory?: MemoryRef;
  /** Without `system` when `settingsRef` is set. */
  model: ModelStepSettings;
  /** Absent when `settingsRef` is set. */
  tools?: string[];
  /**
   * The session's stored settings (issue 33): its system prompt, tool names and agent definitions
   * are there, not in this turn; the model calls carry the reference instead.
   */
  settingsRef?: string;
  rules: { deny: string[] };
  subagents?: { agents?: Agent[] };
  view?: ContextView;
  contextSettings?: ContextSettings;
  streamingToolExecution?: boolean;
  mcpServers?: Mcp;
  hooks?: Hooks;
  /** The files the session's command hooks run, pinned at its start (src/hooks/pins.ts). */
  hookPins?: HookPins;
  /**
   * The session's sandbox settings: its command hooks run in its sandbox (src/hooks/sandboxed.ts),
   * with `passEnv` besides the allowlist.
   */
  sandbox?: EngineSandboxSettings;
  context: Pick<AgentContext, 'cwd' | 'projectDir' | 'worktree'> & { additionalDirectories?: string[] };
}

/** The model call's input (the model activity's CallModelInput). */
export interface ModelCallArgs<Agent, Mcp> {
  sessionId: string;
  budget?: BudgetLink;
  turn: number;
  head: string | null;
  append: Message[];
  /** The previous step's writes, made before the call (the call's head is then the appended one). */
  stepWrites?: StepWritesWire;
  memory?: MemoryRef;
  settings: ModelStepSettings;
  /** Absent with `settingsRef`: the activity reads them (and the system prompt, the agents) from the store. */
  toolNames?: string[];
  settingsRef?: string;
  denyRules?: string[];
  agents?: Agent[];
  view?: ContextView;
  contextSettings?: ContextSettings;
  autoCompact?: boolean;
  streamToolUses?: boolean;
  mcp?: StepMcp<Mcp>;
}

/** The compaction's input (the compaction activity's CompactContextInput). */
export interface CompactArgs<Agent, Mcp, Hooks> {
  sessionId: string;
  budget?: BudgetLink;
  turn: number;
  n: number;
  trigger: CompactTrigger;
  attempt: number;
  head: string | null;
  view: ContextView;
  tokensBefore: number;
  settings: ModelStepSettings;
  /** Absent with `settingsRef`, as in the model call's input. */
  toolNames?: string[];
  settingsRef?: string;
  denyRules?: string[];
  agents?: Agent[];
  contextSettings?: ContextSettings;
  hooks?: Hooks;
  /** The agent's current directory (the PreCompact hook input's `cwd`). */
  cwd: string;
  /**
   * Where command hooks run: the session's project root (absent in compactions an older turn
   * scheduled: `cwd`, as before).
   */
  projectDir?: string;
  hookPins?: HookPins;
  /** The session's `sandbox.passEnv`, for its command hooks. */
  hookPassEnv?: string[];
  /** The session's sandbox settings, which its PreCompact command hooks run in (absent in older compactions: the host). */
  hookSandbox?: EngineSandboxSettings;
  mcp?: StepMcp<Mcp>;
}

/** A model call's answer: a message (`R`), or the window is (nearly) full: compact first. */
export type ModelCallAnswer<R> =
  R | { kind: 'compact'; trigger: CompactTrigger; tokens: number; view: ContextView; sentHead: string | null };

export type CompactAnswer =
  | { kind: 'compacted'; view: ContextView; record: CompactionRecord; usage: Usage; modelUsage?: ModelUsage }
  | { kind: 'blocked'; reason: string };

export interface ModelStepRunners<Agent, Mcp, Hooks, R> {
  callModel(args: ModelCallArgs<Agent, Mcp>, activityId: string, summary: string): Promise<ModelCallAnswer<R>>;
  compact(args: CompactArgs<Agent, Mcp, Hooks>, activityId: string, summary: string): Promise<CompactAnswer>;
}

export type ManagedModelStep<R> = ModelStepResult<R> & { compactionUsage?: Usage; compactionModelUsage?: ModelUsage };

/** What a turn's model step keeps across the turn's outage retries (a compaction is not redone). */
export interface ModelStepState {
  view?: ContextView;
  compactions: CompactionRecord[];
  compactionUsage?: Usage;
  /** The summarizing calls' usage and cost by model (absent: none ran, or their results were recorded before it existed). */
  compactionModelUsage?: ModelUsage;
  /** Scheduled `compact-<n>` activities, by n (a retried one gets `compact-<n>-attempt-<k>`). */
  compactTries: Record<number, number>;
}

export function newModelStepState(): ModelStepState {
  return { compactions: [], compactTries: {} };
}

/**
 * Model activity ids: the first call keeps `model-<turn>` (audits and recorded histories name it
 * so); a retry after an outage is `model-<turn>-attempt-<k>`, a call after a compaction adds `-<j>`.
 */
export function modelActivityId(turn: number, outageAttempt: number, stepAttempt: number): string {
  return activityIds.model(turn, outageAttempt, stepAttempt);
}

export async function managedModelStep<Agent, Mcp, Hooks, R extends { kind?: 'message'; view: ContextView }>(
  input: ModelStepTurn<Agent, Mcp, Hooks>,
  run: ModelStepRunners<Agent, Mcp, Hooks, R>,
  state: ModelStepState = newModelStepState(),
  outageAttempt = 1,
): Promise<ManagedModelStep<R>> {
  let sentHead: string | null = input.head; // MCP servers: from the session's root, in its sandbox (src/mcp/sandboxed.ts)
  const mcp = input.mcpServers
    ? {
        mcp: {
          servers: input.mcpServers,
          cwd: input.hookPins?.projectDir ?? sessionRootOf(input.context),
          sessionId: input.sessionId,
          sandbox: input.sandbox ?? {},
          additionalDirectories: [...(input.context.additionalDirectories ?? [])],
        },
      }
    : {};
  const extras = { ...mcp, ...(input.budget ? { budget: input.budget } : {}) }; // and the tree's budget
  // The static settings: by reference when stored (issue 33), else inline as recorded.
  const statics = input.settingsRef
    ? { settingsRef: input.settingsRef, denyRules: input.rules.deny }
    : {
        toolNames: input.tools ?? [],
        denyRules: input.rules.deny,
        ...(input.subagents?.agents ? { agents: input.subagents.agents } : {}),
      };
  const step = await runModelStep<R>(
    {
      async callModel(view, attempt, opts) {
        const outcome = await run.callModel(
          {
            sessionId: input.sessionId,
            turn: input.turn,
            head: input.head,
            append: input.append,
            ...(input.carry ? { stepWrites: stepWritesWire(input.carry, input.head) } : {}),
            ...(input.memory ? { memory: input.memory } : {}),
            settings: input.model,
            ...statics,
            view,
            ...(input.contextSettings ? { contextSettings: input.contextSettings } : {}),
            ...(opts.autoCompact ? {} : { autoCompact: false }),
            ...(input.streamingToolExecution === false ? {} : { streamToolUses: true }),
            ...extras,
          },
          modelActivityId(input.turn, outageAttempt, attempt),
          `Model call (turn ${input.turn}${attempt > 0 ? `, after compaction` : ''}, ${input.model.model})`,
        );
        if (outcome.kind === 'compact') {
          sentHead = outcome.sentHead;
          return { kind: 'compact', trigger: outcome.trigger, tokens: outcome.tokens, view: outcome.view };
        }
        return { kind: 'message', result: outcome, view: outcome.view };
      },
      async compact(view, trigger, n, attempt, tokens) {
        const tries = (state.compactTries[n] ?? 0) + 1;
        state.compactTries[n] = tries;
        const r = await run.compact(
          {
            sessionId: input.sessionId,
            turn: input.turn,
            n,
            trigger,
            attempt,
            head: sentHead,
            view,
            tokensBefore: tokens,
            settings: input.model,
            ...statics,
            ...(input.contextSettings ? { contextSettings: input.contextSettings } : {}),
            ...(input.hooks ? { hooks: input.hooks } : {}),
            cwd: input.context.cwd,
            // PreCompact command hooks (the session's and the worker's) run from the project root.
            projectDir: input.hookPins?.projectDir ?? sessionRootOf(input.context),
            ...(input.hookPins ? { hookPins: input.hookPins } : {}),
            ...(input.sandbox?.passEnv ? { hookPassEnv: input.sandbox.passEnv } : {}),
            hookSandbox: input.sandbox ?? {},
            ...extras,
          },
          activityIds.attempt(activityIds.compact(n), tries),
          `Compaction ${n} (${trigger === 'reactive' ? 'the API said the prompt is too long' : 'auto'}, ${tokens} tokens)`,
        );
        if (r.kind === 'blocked') return r;
        state.compactionUsage = addUsage(state.compactionUsage ?? { input_tokens: 0, output_tokens: 0 }, r.usage);
        if (r.modelUsage) state.compactionModelUsage = addModelUsage(state.compactionModelUsage, r.modelUsage);
        state.view = r.view;
        state.compactions.push(r.record);
        return { kind: 'compacted', view: r.view, record: r.record };
      },
    },
    state.view ?? input.view ?? INITIAL_VIEW,
  );
  const all = { ...step, compactions: state.compactions };
  return {
    ...all,
    ...(state.compactionUsage ? { compactionUsage: state.compactionUsage } : {}),
    ...(state.compactionModelUsage ? { compactionModelUsage: state.compactionModelUsage } : {}),
  };
}
