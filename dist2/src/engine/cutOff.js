"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.cutOffToolUse = cutOffToolUse;
exports.cutOffMessage = cutOffMessage;
exports.cutOffRecord = cutOffRecord;
const records_1 = require("./records");
/** The tool_use cut off by max_tokens: the message's last block, when it is a tool_use and the stop reason is max_tokens. */
function cutOffToolUse(message, stopReason) {
    if (stopReason !== 'max_tokens')
        return undefined;
    const last = message.content[message.content.length - 1];
    return last?.type === 'tool_use' ? last : undefined;
}
function cutOffMessage(block) {
    const json = JSON.stringify(block.input) ?? '';
    const received = json.length > 300 ? `${json.slice(0, 299)}… (${json.length} characters)` : json;
    return (`This ${block.name} call was not run: the response reached max_tokens while this tool_use was being written, ` +
        `so its input is incomplete (what arrived: ${received}). Issue the call again if it is still needed — ` +
        'with a shorter input, or in parts.');
}
function cutOffRecord(block, summary = block.name) {
    return (0, records_1.syntheticRecord)(block, 'error', cutOffMessage(block), summary);
}
//# sourceMappingURL=cutOff.js.map