"use strict";
// Reading a request from inside a script function: what the model "sees" on this turn.
Object.defineProperty(exports, "__esModule", { value: true });
exports.lastMessage = lastMessage;
exports.lastToolResults = lastToolResults;
exports.lastUserText = lastUserText;
function lastMessage(request) {
    return request.messages[request.messages.length - 1];
}
/** The tool_result blocks of the last message (empty unless it answers tool calls). */
function lastToolResults(request) {
    const last = lastMessage(request);
    if (!last || last.role !== 'user' || typeof last.content === 'string')
        return [];
    return last.content.filter((b) => b.type === 'tool_result');
}
/** The plain text of the last user message (text blocks joined), or '' when there is none. */
function lastUserText(request) {
    const last = lastMessage(request);
    if (!last || last.role !== 'user')
        return '';
    if (typeof last.content === 'string')
        return last.content;
    return last.content
        .filter((b) => b.type === 'text' && typeof b.text === 'string')
        .map((b) => b.text)
        .join('');
}
//# sourceMappingURL=requests.js.map