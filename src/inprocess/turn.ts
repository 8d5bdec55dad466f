// One turn in-process, as the turn workflow runs it: the model step (clearing, auto/reactive
// compaction), the tools (streamed early or after the message), then the tool results into the
// transcript. The decisions are the engine's `executeTurn`; this file supplies its executor.
import { callModelWith, ModelCallError, type CallModelResult } from '../runtime/model';
import type { CallRuntime } from '../runtime/runtime';
import { compactContextWith } from '../runtime/compact';
import type { ToolSessionSettings } from '../toolCall/tools';
import { managedModelStep, newModelStepState, type ManagedModelStep as EngineModelStep } from '../core/modelStep';
import { modelWithSkillGrants } from '../core/context';
import { assistantText, oneLinePreview, type Message, type ToolUseBlock } from '../core/apiMessages';
import type { ToolCallRecord } from '../core/toolRecords';
import { turnModelUsage, withModelUsage } from '../core/modelUsage';
import { retryPolicy, type OutageState } from '../core/retry';
import { transientFailureFromDetails } from '../core/schedulerShared';
import type { SessionState, TurnReport } from '../core/session';
import type { StreamingToolExecution } from '../core/streaming';
import {
  executeTurn,
  type ModelCallResult,
  type ToolUseDescription,
  type TurnExecutor,
  type TurnOutcome,
} from '../core/turn';
import type { AgentDefinition } from '../agents/definitions';
import type { McpServers } from '../mcp/config';
import type { ToolUseContext } from '../toolProtocol/Tool';
import type { sessionInput } from '../sessionInput';
import type { createCallDeps } from '../runtime/callDeps';
import { localStreaming, withStreamedToolUses } from './streaming';

type ManagedModelStep = EngineModelStep<CallModelResult>;
export type LocalDeps = ReturnType<typeof createCallDeps>;

/** What a turn takes from its session (src/inprocess/sessionRun.ts). */
export interface LocalTurnHost {
  readonly input: ReturnType<typeof sessionInput>;
  readonly sessionId: string;
  readonly deps: LocalDeps;
  readonly session: ToolSessionSettings;
  readonly state: SessionState;
  readonly priorRecords: Map<string, ToolCallRecord>;
  /** The subagents' definitions are read (awaited before the first model call). */
  readonly agentsReady: Promise<void>;
  readonly runSubagent: NonNullable<ToolUseContext['runSubagent']>;
  runtime(signal: AbortSignal, key: string): CallRuntime;
  /** A key for the next tool call's runtime (unique within the run). */
  nextToolKey(toolUseId: string): string;
  onTurnOutage(o: OutageState | undefined): void;
  ask(
    block: ToolUseBlock,
    message: string,
    description: ToolUseDescription,
    signal: AbortSignal,
  ): ReturnType<TurnExecutor['awaitApproval']>;
  storeCall<T>(call: () => Promise<T>): Promise<T>;
  /** The turn ended (not failed): the caller's onTurn, its detail and its records. */
  onTurnEnd(turn: number, outcome: TurnOutcome): void;
  /** The model's last text, whole (a subagent's result). */
  onText(text: string): void;
}

export function abortableSleep(ms: number, signal: AbortSignal): Promise<'done' | 'interrupted'> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve('interrupted');
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve('interrupted');
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve('done');
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class LocalTurn {
  /** Aborted by an interrupt: stops the model call, every tool call and the approval waits. */
  readonly abort = new AbortController();
  private model: CallModelResult | undefined;
  private step: ManagedModelStep | undefined;
  private readonly stepState = newModelStepState();
  private readonly streaming: StreamingToolExecution | undefined;

  constructor(
    private readonly host: LocalTurnHost,
    private readonly turn: number,
    private readonly append: Message[],
  ) {
    this.streaming = this.startStreaming();
  }

  private get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Streaming tool execution, as the turn workflow does it (src/inprocess/streaming.ts). */
  private startStreaming(): StreamingToolExecution | undefined {
    const { host } = this;
    if (host.input.streamingToolExecution === false) return undefined;
    return localStreaming({
      context: host.state.context,
      maxConcurrency: host.input.maxConcurrency ?? 10,
      priorRecords: host.priorRecords,
      signal: this.signal,
      describe: (blocks, messageRefs, context) =>
        host.deps.describeToolUses({ session: host.session, blocks, messageRefs, context }),
      run: (call, own) =>
        host.deps.runToolCall({ session: host.session, ...call }, host.runtime(own, host.nextToolKey(call.block.id)), {
          runSubagent: host.runSubagent,
          backgroundTasks: true,
          monitorTasks: true,
        }),
    });
  }

  async run(): Promise<TurnReport> {
    const { host } = this;
    let outcome: TurnOutcome;
    try {
      outcome = await executeTurn(
        {
          context: host.state.context,
          priorRecords: host.priorRecords,
          maxConcurrency: host.input.maxConcurrency ?? 10,
          retry: retryPolicy(host.input),
          ...(this.streaming ? { streaming: this.streaming } : {}),
        },
        this.executor(),
      );
    } catch (err) {
      return this.failed(err instanceof Error ? err.message : String(err));
    }
    if (outcome.reason === 'failed') return this.failed(outcome.error ?? 'unavailable');
    return this.report(outcome);
  }

  private failed(error: string): TurnReport {
    return {
      reason: 'failed',
      consumedAppend: false,
      head: this.host.state.head,
      context: this.host.state.context,
      records: [],
      text: '',
      error: `model call failed: ${error}`,
    };
  }

  private executor(): TurnExecutor {
    const { host, signal } = this;
    return {
      now: () => Date.now(),
      onOutage: (o) => host.onTurnOutage(o),
      sleep: (ms) => abortableSleep(ms, signal),
      callModel: (attempt) => this.callModel(attempt),
      describe: (blocks, context) =>
        host.deps.describeToolUses({
          session: host.session,
          blocks: [...blocks],
          messageRef: this.model?.head ?? null,
          context,
        }),
      runTool: (block, context, _description, approval) =>
        host.deps.runToolCall(
          {
            session: host.session,
            block,
            messageRef: this.model?.head ?? null,
            context,
            ...(approval ? { approval } : {}),
          },
          host.runtime(signal, host.nextToolKey(block.id)),
          { runSubagent: host.runSubagent, backgroundTasks: true, monitorTasks: true },
        ),
      awaitApproval: (block, a, description) => host.ask(block, a.message, description, signal),
      isInterrupted: () => signal.aborted,
    };
  }

  /** The same model step as the turn workflow (clearing, auto/reactive compaction), called directly. */
  private async callModel(attempt: number): Promise<ModelCallResult> {
    const { host, signal, streaming } = this;
    const { state, input, session } = host;
    if (signal.aborted) return { kind: 'interrupted' };
    let model: CallModelResult;
    try {
      await host.agentsReady;
      const step = await managedModelStep<AgentDefinition, McpServers, unknown, CallModelResult>(
        {
          sessionId: host.sessionId,
          turn: this.turn,
          head: state.head,
          append: this.append,
          ...(state.memoryRef ? { memory: state.memoryRef } : {}),
          model: modelWithSkillGrants(input.model, state.context),
          tools: input.tools,
          rules: input.rules,
          context: state.context,
          ...(streaming ? {} : { streamingToolExecution: false }),
          ...(state.view ? { view: state.view } : {}),
          ...(input.contextManagement ? { contextSettings: input.contextManagement } : {}),
          ...(input.hooks ? { hooks: input.hooks } : {}),
          ...(input.hookPins ? { hookPins: input.hookPins } : {}),
          ...(input.sandbox ? { sandbox: input.sandbox } : {}),
          ...(session.mcpServers ? { mcpServers: session.mcpServers } : {}),
          ...(session.agents ? { subagents: { agents: session.agents } } : {}),
        },
        {
          callModel: (args, id) =>
            callModelWith(host.deps.modelDeps, args, withStreamedToolUses(host.runtime(signal, id), streaming, id)),
          compact: (args, id) => compactContextWith(host.deps.compactDeps, args, host.runtime(signal, id)),
        },
        this.stepState,
        attempt,
      );
      this.step = step;
      if (step.kind === 'interrupted') return { kind: 'interrupted' };
      model = this.model = step.result;
    } catch (err) {
      if (signal.aborted) return { kind: 'interrupted' };
      // The core's classification: a retryable failure is waited out, the rest ends the turn.
      if (err instanceof ModelCallError && err.retryable)
        return {
          kind: 'unavailable',
          failure: transientFailureFromDetails('model', err.message, err.transient ? [err.transient] : undefined),
        };
      throw err;
    }
    return {
      kind: 'message',
      message: model.message,
      usage: model.usage,
      stopReason: model.stopReason,
      ...(model.stopDetails ? { stopDetails: model.stopDetails } : {}),
    };
  }

  /** As in the turn workflow: the tool results enter the transcript at the end of their turn, by reference. */
  private async report(outcome: TurnOutcome): Promise<TurnReport> {
    const { host, model, step } = this;
    host.onTurnEnd(this.turn, outcome);
    let head = model ? model.head : host.state.head;
    if (outcome.toolResults && model) {
      const results = outcome.toolResults;
      const from = head;
      head = await host.storeCall(() => host.deps.appendTranscript({ head: from, messages: [results] }));
    }
    const text = assistantText(model?.message);
    host.onText(text);
    return {
      reason: outcome.reason,
      consumedAppend: model !== undefined,
      head,
      context: outcome.context,
      ...(outcome.usage ? { usage: outcome.usage } : {}),
      records: outcome.records,
      text: oneLinePreview(text, 2000),
      ...(outcome.stopDetails ? { stopDetails: outcome.stopDetails } : {}),
      ...(step ? { view: step.view, compactions: step.compactions } : {}),
      ...(step?.compactionUsage ? { compactionUsage: step.compactionUsage } : {}),
      ...withModelUsage(turnModelUsage(model?.modelUsage, step?.compactionModelUsage, outcome.records)),
    };
  }
}
