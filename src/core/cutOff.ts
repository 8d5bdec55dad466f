// A response cut off by max_tokens (or by the model's context window: stop_reason
// `model_context_window_exceeded`, issue 31) while a tool_use was being written ends with that tool_use
// incomplete: its JSON stopped mid-way, and the SDK's partial parse keeps only the fields that
// were complete — `{"command": "rm -rf build/cache` becomes `{}`, and an Edit without the
// `replace_all` it was about to set still validates. The API docs say such a block must not be
// used ("retry the request with a higher max_tokens value to get the full tool use"): the call is
// answered without running, with a result that says why, and the session goes on (invariant 1).
// Found by `npm run test:faults` (model faults: max_tokens inside a tool_use).
import type { AssistantMessage, ToolUseBlock } from './apiMessages';
import { syntheticRecord, type ToolCallRecord } from './toolRecords';

/** The stop reasons that cut the answer where it was: its last block may be incomplete. */
export function cutsOff(stopReason: string | null | undefined): boolean {
  return stopReason === 'max_tokens' || stopReason === 'model_context_window_exceeded';
}

/** The tool_use cut off: the message's last block, when it is a tool_use and the stop reason cuts off (`cutsOff`). */
export function cutOffToolUse(
  message: AssistantMessage,
  stopReason: string | null | undefined,
): ToolUseBlock | undefined {
  if (!cutsOff(stopReason)) return undefined;
  const last = message.content[message.content.length - 1];
  return last?.type === 'tool_use' ? last : undefined;
}

export function cutOffMessage(block: ToolUseBlock, stopReason = 'max_tokens'): string {
  const json = JSON.stringify(block.input) ?? '';
  const received = json.length > 300 ? `${json.slice(0, 299)}… (${json.length} characters)` : json;
  const reached = stopReason === 'model_context_window_exceeded' ? "the model's context window" : 'max_tokens';
  return (
    `This ${block.name} call was not run: the response reached ${reached} while this tool_use was being written, ` +
    `so its input is incomplete (what arrived: ${received}). Issue the call again if it is still needed — ` +
    'with a shorter input, or in parts.'
  );
}

export function cutOffRecord(block: ToolUseBlock, summary = block.name, stopReason = 'max_tokens'): ToolCallRecord {
  return syntheticRecord(block, 'error', cutOffMessage(block, stopReason), summary);
}
