// The same turn algorithm without Temporal: an in-process executor for fast tests, for library
// users who want no server, and as the baseline of the overhead benchmark. One algorithm, two
// schedulers: everything here delegates to the engine, the model core and the tool core.
import { randomUUID } from 'node:crypto';
import { callModelWith, type CallModelResult, type CallRuntime } from '../activities/model';
import type { ToolSessionSettings } from '../activities/tools';
import { initialContext, type AgentContext } from '../engine/context';
import type { Message, ToolUseBlock, Usage } from '../engine/messages';
import type { ToolCallRecord } from '../engine/records';
import { executeTurn, type Approval, type ToolUseDescription, type TurnExecutor, type TurnOutcome } from '../engine/turn';
import { sessionInput, type SessionOptions } from '../client';
import { createAgentActivities, type AgentWorkerOptions } from '../worker';
import type { SessionResult } from '../workflows/definitions';

export interface LocalSessionOptions extends SessionOptions {
  sessionId?: string;
  /** Resolves `ask` decisions; default: deny with a reason (unattended). */
  onAsk?: (ask: { toolUseId: string; toolName: string; summary: string; message: string }) => Promise<Approval>;
  /** Abort to interrupt: in-flight tools are aborted, the rest get interruption results. */
  signal?: AbortSignal;
  onTurn?: (turn: number, outcome: TurnOutcome) => void;
}

export interface LocalSessionResult extends SessionResult {
  sessionId: string;
  records: ToolCallRecord[];
  turnsDetail: Array<{ turn: number; reason: string; batches: TurnOutcome['batches'] }>;
  context: AgentContext;
}

export async function runLocalSession(
  opts: LocalSessionOptions,
  worker: Omit<AgentWorkerOptions, 'connection' | 'workflowBundle' | 'workerOptions' | 'namespace' | 'taskQueue'> = {},
): Promise<LocalSessionResult> {
  const input = sessionInput(opts);
  const sessionId = opts.sessionId ?? `local-${randomUUID()}`;
  const deps = createAgentActivities(worker);
  const signal = opts.signal ?? new AbortController().signal;
  const session: ToolSessionSettings = {
    sessionId,
    toolNames: input.tools,
    permission: { mode: input.permissionMode, rules: input.rules, workingDirectories: [input.cwd, ...(input.additionalDirectories ?? [])] },
    ...(input.hooks ? { hooks: input.hooks as ToolSessionSettings['hooks'] } : {}),
  };
  let context = initialContext(input.cwd, input.additionalDirectories ?? []);
  let head: string | null = null;
  let pending: Message[] = [{ role: 'user', content: input.prompt }];
  const usage: Usage = { input_tokens: 0, output_tokens: 0 };
  const ledger = new Map<string, ToolCallRecord>();
  const allRecords: ToolCallRecord[] = [];
  const turnsDetail: LocalSessionResult['turnsDetail'] = [];
  let lastText = '';
  let calls = 0;
  const runtime = (key: string): CallRuntime => ({ signal, heartbeat: () => undefined, attempt: 1, callKey: `${sessionId}/${key}`, warn: () => undefined });
  const end = (status: SessionResult['status'], endReason: string, turns: number): LocalSessionResult => ({
    status, turns, usage, head, lastText, endReason, sessionId, records: allRecords, turnsDetail, context,
  });

  for (let turn = 1; ; turn++) {
    if (input.maxTurns !== undefined && turn > input.maxTurns) return end('max_turns', `reached the limit of ${input.maxTurns} turns`, turn - 1);
    if (input.maxTotalTokens !== undefined && usage.input_tokens + usage.output_tokens >= input.maxTotalTokens) return end('max_tokens', 'token limit', turn - 1);
    let model: CallModelResult | undefined;
    const executor: TurnExecutor = {
      async callModel() {
        if (signal.aborted) return { kind: 'interrupted' };
        try {
          model = await callModelWith(deps.modelDeps, { sessionId, turn, head, append: pending, settings: input.model, toolNames: input.tools, denyRules: input.rules.deny }, runtime(`model-${turn}`));
        } catch (err) {
          if (signal.aborted) return { kind: 'interrupted' };
          throw err;
        }
        return { kind: 'message', message: model.message, usage: model.usage, stopReason: model.stopReason };
      },
      async describe(blocks: readonly ToolUseBlock[], ctx: AgentContext) {
        return deps.activities.describeToolUses({ session, blocks: [...blocks], messageRef: model?.head ?? null, context: ctx });
      },
      async runTool(block: ToolUseBlock, ctx: AgentContext, _d: ToolUseDescription, approval?: Approval) {
        calls++;
        return deps.runToolUseWith({ session, block, messageRef: model?.head ?? null, context: ctx, ...(approval ? { approval } : {}) }, runtime(`tool-${block.id}-${calls}`));
      },
      async awaitApproval(block, ask, description) {
        if (signal.aborted) return 'interrupted';
        if (!opts.onAsk) return { decision: 'deny', source: 'timeout', reason: 'No approver is attached to this in-process session; denied by default.' };
        return opts.onAsk({ toolUseId: block.id, toolName: block.name, summary: description.summary, message: ask.message });
      },
      isInterrupted: () => signal.aborted,
    };
    const outcome = await executeTurn({ context, ledger, maxConcurrency: input.maxConcurrency ?? 10 }, executor);
    opts.onTurn?.(turn, outcome);
    turnsDetail.push({ turn, reason: outcome.reason, batches: outcome.batches });
    if (model) {
      head = model.head;
      pending = [];
      usage.input_tokens += model.usage.input_tokens;
      usage.output_tokens += model.usage.output_tokens;
      const text = model.message.content.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join('\n');
      if (text) lastText = text;
    }
    context = outcome.context;
    for (const r of outcome.records) {
      if (!r.reused) ledger.set(r.toolUseId, r);
      allRecords.push(r);
    }
    // As in the turn workflow: the tool results enter the transcript at the end of their turn, by reference.
    if (outcome.toolResults && model) head = await deps.activities.appendTranscript({ head, messages: [outcome.toolResults] });
    if (outcome.reason === 'interrupted') return end('interrupted', 'interrupted', turn);
    if (outcome.reason === 'tool_use') continue;
    return end('completed', outcome.reason === 'max_tokens' ? 'the model hit max_tokens' : 'the model ended its turn', turn);
  }
}
