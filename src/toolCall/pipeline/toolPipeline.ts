// The single execution entry for one tool_use (invariant 2):
// find → schema → validateInput → PreToolUse hooks → permission → call → map → size policy →
// PostToolUse hooks (PostToolUseFailure when the call failed). Every failure becomes an is_error
// tool_result with the same id (invariant 6).
// No Temporal here: activities wrap this function; tests call it directly. Its inputs and outcome
// are in types.ts; what a scheduler asks before running a call is in describe.ts. The stages work
// on one typed context (toolRun.ts) whose state (runState.ts) any stage can end the run with.
import { toolResultText, type ToolResultBlockParam, type ToolUseBlock } from '../../core/apiMessages';
import { hookToolResponse } from '../../hooks/toolResponse';
import { loadShellParser } from '../../permissions/bashParser';
import type { ToolProgress, ToolResult } from '../../toolProtocol/Tool';
import { findToolByName } from '../../toolProtocol/pool';
import { CallHooks } from './callHooks';
import { acceptInput, permit, preToolUse, readyToCall } from './checks';
import { errMessage, isValidBlock, MAX_ERROR_CHARS, noSuchToolResult, persistedOutputMessage } from './resultBlocks';
import { RunState } from './runState';
import { newToolRun, takeResumed, type ToolRun } from './toolRun';
import type { PipelineEnv, ToolUseOutcome } from './types';

/** Runs one tool_use through the whole pipeline. Never throws. */
export async function runToolPipeline(block: ToolUseBlock, env: PipelineEnv): Promise<ToolUseOutcome> {
  const state = new RunState(block);
  try {
    const signal = env.abortSignal;
    if (signal?.aborted) return state.interrupted('It was not started.');
    // The shell parser loads once (wasm): Bash's declarations and rules need it. If it cannot
    // load, every command is treated as unknown (not read-only, matched by no allow rule).
    await loadShellParser();
    // Only a tool in the pool runs.
    const tool = findToolByName(env.pool, state.toolName);
    if (!tool) {
      const r = noSuchToolResult(
        state.toolUseId,
        state.toolName,
        env.pool.map((t) => t.name),
      );
      return state.failed('error', 'unknown_tool', r.content as string, r);
    }
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await runStages(newToolRun(state, env, tool, controller));
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  } catch (e) {
    return state.failed(
      'error',
      'call',
      `Error calling tool ${state.toolName}: internal pipeline error: ${errMessage(e)}`,
    );
  }
}

async function runStages(run: ToolRun): Promise<ToolUseOutcome> {
  if (run.resumed) takeResumed(run, run.resumed);
  else {
    const invalid = await acceptInput(run, run.state.input, 'decide');
    if (invalid) return invalid;
  }
  const hooks = await CallHooks.of(run);
  if (!(hooks instanceof CallHooks)) return hooks;
  if (!run.resumed) {
    const stopped = (await preToolUse(run, hooks)) ?? (await permit(run)) ?? (await readyToCall(run));
    if (stopped) return stopped;
  }
  const called = await callTool(run, hooks);
  if ('ended' in called) return called.ended;
  const mapped = mapResult(run, called.result);
  if ('ended' in mapped) return mapped.ended;
  const sized = await sizePolicy(run, mapped.block);
  if (sized.block.is_error === true) {
    await hooks.failure(toolResultText(sized.block));
  } else {
    await hooks.postToolUse(called.result, hookToolResponse(run.tool.name, called.result.data, run.data, sized.stored));
  }
  return finish(run, called.result, sized);
}

type Ended = { ended: ToolUseOutcome };

/** call() (phase 'post': the scheduler's output), raced against an abort. A call that threw runs PostToolUseFailure. */
async function callTool(run: ToolRun, hooks: CallHooks): Promise<Ended | { result: ToolResult<unknown> }> {
  const { state, env, tool, controller, resumed } = run;
  const onProgress = (p: ToolProgress) => {
    try {
      env.onProgress?.(p);
    } catch {
      // a failing observer must not fail the tool
    }
  };
  let removeAbortWaiter = () => undefined as void;
  const abortWaiter = new Promise<{ kind: 'aborted' }>((resolve) => {
    const h = () => resolve({ kind: 'aborted' });
    controller.signal.addEventListener('abort', h, { once: true });
    removeAbortWaiter = () => controller.signal.removeEventListener('abort', h);
  });
  run.callStarted = Date.now();
  const callPromise = Promise.resolve()
    .then(() => (resumed ? { data: resumed.output } : tool.call(run.data, run.ctx, onProgress)))
    .then(
      (value) => ({ kind: 'ok' as const, value }),
      (error: unknown) => ({ kind: 'error' as const, error }),
    );
  const raced = await Promise.race([callPromise, abortWaiter]);
  removeAbortWaiter();
  if (raced.kind === 'aborted') return { ended: state.interrupted() };
  if (raced.kind === 'error') {
    if (controller.signal.aborted) return { ended: state.interrupted() };
    const message = `Error calling tool ${tool.name}: ${errMessage(raced.error)}`;
    await hooks.failure(message);
    return { ended: state.failed('error', 'call', message) };
  }
  const result = raced.value as ToolResult<unknown> | undefined;
  if (!result || typeof result !== 'object' || !('data' in result)) {
    return { ended: state.failed('error', 'call', `Error calling tool ${tool.name}: call() returned no result`) };
  }
  return { result };
}

/** The tool's output as the API block, with this call's id. */
function mapResult(run: ToolRun, result: ToolResult<unknown>): Ended | { block: ToolResultBlockParam } {
  const { tool, state } = run;
  try {
    const m = tool.mapToolResultToToolResultBlockParam(result.data, state.toolUseId);
    if (!isValidBlock(m)) throw new Error('mapToolResultToToolResultBlockParam returned a malformed block');
    const block: ToolResultBlockParam = { ...m, type: 'tool_result', tool_use_id: state.toolUseId };
    if (m.is_error !== true) delete block.is_error;
    return { block };
  } catch (e) {
    const message = `Error calling tool ${tool.name}: the tool ran, but its result could not be converted: ${errMessage(e)}`;
    return { ended: state.failed('error', 'call', message) };
  }
}

interface Sized {
  block: ToolResultBlockParam;
  /** Where a result over the tool's limit was stored, and its size in bytes. */
  stored?: { path: string; size: number };
}

/** A result over the tool's maxResultSizeChars goes to the result store; the model sees where. */
async function sizePolicy(run: ToolRun, block: ToolResultBlockParam): Promise<Sized> {
  const { tool, env, state } = run;
  const text = toolResultText(block);
  const limit = tool.maxResultSizeChars;
  if (typeof limit !== 'number' || !Number.isFinite(limit) || limit < 0 || text.length <= limit) return { block };
  if (!env.resultStore) {
    state.hookNotices.push(
      `The ${tool.name} result (${text.length} chars) exceeds ${limit} chars but no result store is configured; kept it inline.`,
    );
    return { block };
  }
  try {
    const path = await env.resultStore.put(state.toolUseId, text);
    const sized: Sized = { block: { ...block, content: persistedOutputMessage(path, text) } };
    // (a store that answers no location: the message says so, and nothing is recorded as stored)
    if (path !== undefined) sized.stored = { path, size: Buffer.byteLength(text) };
    return sized;
  } catch (e) {
    state.hookNotices.push(
      `Could not store the large ${tool.name} result (${text.length} chars); kept it inline: ${errMessage(e)}`,
    );
    return { block };
  }
}

/** The outcome of a call that ran: its result with the hooks' text, what it changed and reported. */
function finish(run: ToolRun, result: ToolResult<unknown>, sized: Sized): ToolUseOutcome {
  const { state } = run;
  const contextModifiers = Array.isArray(result.contextModifiers) ? result.contextModifiers : [];
  const newMessages = Array.isArray(result.newMessages) ? result.newMessages : [];
  const extra: Partial<ToolUseOutcome> = { result: state.withContext(sized.block), contextModifiers, newMessages };
  if (sized.stored) extra.persistedTo = sized.stored.path;
  if (result.sandbox && typeof result.sandbox === 'object') extra.sandbox = result.sandbox;
  if (result.network && typeof result.network === 'object') extra.network = result.network;
  if (sized.block.is_error === true) {
    extra.failure = { stage: 'call', message: toolResultText(sized.block).slice(0, MAX_ERROR_CHARS) };
    return state.outcome('error', extra);
  }
  return state.outcome('ok', extra);
}
