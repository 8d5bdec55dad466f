"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.REJECT_MESSAGE = exports.NOT_STARTED_INTERRUPT_MESSAGE = exports.INTERRUPT_MESSAGE = exports.MAX_CONTROL_WRITES = void 0;
exports.errorResult = errorResult;
exports.syntheticRecord = syntheticRecord;
exports.interruptedRecord = interruptedRecord;
exports.toolResultsMessage = toolResultsMessage;
exports.danglingToolUses = danglingToolUses;
/** How many control writes one record lists (the record travels through history: invariant 11). */
exports.MAX_CONTROL_WRITES = 20;
exports.INTERRUPT_MESSAGE = 'Interrupted by user: the tool call was stopped before it completed, and its result is unknown or partial.';
exports.NOT_STARTED_INTERRUPT_MESSAGE = 'Interrupted by user: this tool call was not started.';
exports.REJECT_MESSAGE = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).";
function errorResult(toolUseId, content) {
    return { type: 'tool_result', tool_use_id: toolUseId, content, is_error: true };
}
/** A record for a call that never produced a result of its own (interrupted, internal failure). */
function syntheticRecord(block, status, message, summary = block.name) {
    return {
        toolUseId: block.id,
        toolName: block.name,
        input: block.input,
        summary,
        status,
        result: errorResult(block.id, message),
        contextModifiers: [],
    };
}
function interruptedRecord(block, started, summary) {
    return syntheticRecord(block, 'interrupted', started ? exports.INTERRUPT_MESSAGE : exports.NOT_STARTED_INTERRUPT_MESSAGE, summary);
}
/**
 * The user message that answers an assistant message: one tool_result per tool_use, in the
 * order of the tool_use blocks, whatever order the calls finished in.
 */
function toolResultsMessage(blocks, records) {
    return {
        role: 'user',
        content: blocks.map((b) => records.get(b.id)?.result ?? errorResult(b.id, exports.NOT_STARTED_INTERRUPT_MESSAGE)),
    };
}
/** Every tool_use id in `blocks` without a record: must be empty when a turn ends. */
function danglingToolUses(blocks, records) {
    return blocks.filter((b) => !records.has(b.id)).map((b) => b.id);
}
//# sourceMappingURL=records.js.map