// The tool activities: the cores of src/toolCall/tools.ts (the one pipeline with its execution ledger)
// with the activity's runtime — its heartbeats, cancellation signal, attempt and call key — its
// keepalive, and handing the attempt back when the worker shuts down (runtime.ts).
import {
  createToolCalls,
  type FinishSubagentInput,
  type RunToolUseInput,
  type SubagentPrepared,
  type ToolDeps,
} from '../../toolCall/tools';
import type { RunToolUseByRef } from '../../toolCall/toolTypes';
import type { AgentContext } from '../../core/context';
import type { ToolSessionInput } from '../../toolCall/toolTypes';
import type { ToolRunResult } from '../../core/turn';
import { recordToolCall } from './metrics';
import { findToolUse, inputForHistory, recordWithoutSentBlock } from '../../core/payloads';
import type { ToolUseBlock } from '../../core/apiMessages';
import { withActivityRuntime } from './runtime';
import { noteOnSpan } from './spanNotes';
import { sideCallCharger } from './budget';

/** A call the worker's shutdown stopped: the pipeline's interrupted record, which is handed back instead. */
const stopped = (r: ToolRunResult): boolean => r.kind === 'done' && r.record.status === 'interrupted';

export function createToolActivities(deps: ToolDeps) {
  const calls = createToolCalls(deps);

  /** The call's session and context: inline, or read from the turn's stored step inputs (issue 33). */
  async function wholeInput(wire: RunToolUseInput | RunToolUseByRef): Promise<RunToolUseInput> {
    if (!('stepRef' in wire)) return wire;
    if (!deps.stepStatics) throw new Error("this worker has no store to read the turn's step inputs from");
    const { stepRef, ...rest } = wire;
    // A model call's answer (issue 33): the statics by their key, the node and read files of the answer.
    const { statics, answer } = await deps.stepStatics.resolve(stepRef);
    const d = statics.describeWith as { session: ToolSessionInput; context: AgentContext } | undefined;
    if (!d) throw new Error(`the stored step inputs ${stepRef} hold no tool session`);
    if ('block' in rest) return { ...rest, session: d.session, context: d.context };
    const { toolUseId, ...others } = rest;
    const messageRef = answer?.messageRef ?? rest.messageRef;
    if (!messageRef) throw new Error(`the tool call ${toolUseId} names no stored model message`);
    return {
      ...others,
      ...(answer ? { messageRef, ...(answer.readFilesRef ? { readFilesRef: answer.readFilesRef } : {}) } : {}),
      block: await storedBlock(toolUseId, messageRef),
      session: d.session,
      context: d.context,
    };
  }

  /** A block sent by its id: as history carries it (its input a preview when large), from the stored message. */
  async function storedBlock(toolUseId: string, messageRef: string): Promise<ToolUseBlock> {
    if (!deps.transcripts) throw new Error('this worker has no transcript store to read tool inputs from');
    const found = findToolUse(await deps.transcripts.nodeMessages(messageRef), toolUseId);
    if (!found) throw new Error(`tool_use ${toolUseId} is not in the stored model message ${messageRef}`);
    noteOnSpan({ 'durable_agent.tool.name': found.name });
    return { ...found, input: inputForHistory(found.input) };
  }

  async function runToolUse(wire: RunToolUseInput | RunToolUseByRef): Promise<ToolRunResult> {
    const input = await wholeInput(wire);
    // A child's call: its side model calls are charged to the root's budget as they are made.
    const charge = sideCallCharger(input.budget);
    const run = (rt: Parameters<typeof calls.runToolCall>[1]) =>
      calls.runToolCall(input, charge ? { ...rt, chargeSideCall: charge } : rt);
    const r = recordToolCall(await withActivityRuntime(run, stopped));
    // A turn that sends its step inputs by key puts the record's input back from the block (issue 33).
    return r.kind === 'done' && 'stepRef' in wire
      ? { ...r, record: recordWithoutSentBlock(r.record, input.block, sessionMode(input.session)) }
      : r;
  }

  /**
   * The Agent tool's pre-call phase (schema → validateInput → PreToolUse hooks → permission) as an
   * activity: a recorded result, an `ask`, a failure, or the resolved child session to start.
   */
  async function prepareSubagent(input: RunToolUseInput): Promise<SubagentPrepared> {
    return withActivityRuntime(
      (rt) => calls.prepareSubagent(input, rt),
      (r) => r.kind !== 'ready' && stopped(r),
    );
  }

  /** The post-call phase: the child's final text through result mapping, size policy, PostToolUse hooks. */
  async function finishSubagent(input: FinishSubagentInput): Promise<ToolRunResult> {
    return recordToolCall(await withActivityRuntime((rt) => calls.finishSubagent(input, rt), stopped));
  }

  return {
    describeToolUses: calls.describeToolUses,
    runToolUse,
    runToolCall: calls.runToolCall,
    storeReadFiles: calls.storeReadFiles,
    storeToolSettings: calls.storeToolSettings,
    prepareSubagent,
    finishSubagent,
  };
}

/** The session's permission mode (a decision by it leaves it out of history, issue 33). */
function sessionMode(session: ToolSessionInput): string {
  return 'settingsRef' in session ? session.mode : session.permission.mode;
}
