"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.IDEMPOTENT = exports.writeFileFor = exports.ledgerFile = exports.SESSION_MARK = void 0;
exports.sessionNameOf = sessionNameOf;
exports.turnOf = turnOf;
exports.toolUseId = toolUseId;
exports.crashTurnCalls = crashTurnCalls;
exports.crashTurn = crashTurn;
exports.effectKindOf = effectKindOf;
exports.SESSION_MARK = 'fault-session';
/** The session named in the first user message (`[fault-session NAME]`), if any. */
function sessionNameOf(request) {
    const first = request.messages[0];
    if (!first)
        return undefined;
    const text = typeof first.content === 'string'
        ? first.content
        : first.content.map((b) => (typeof b.text === 'string' ? b.text : '')).join('\n');
    return new RegExp(`\\[${exports.SESSION_MARK} ([A-Za-z0-9-]+)\\]`).exec(text)?.[1];
}
/** 0-based turn index: how many assistant messages the request already holds. */
function turnOf(request) {
    return request.messages.filter((m) => m.role === 'assistant').length;
}
function toolUseId(session, turn, k) {
    return `toolu_${session.replace(/-/g, '')}_t${turn}_${k}`;
}
const ledgerFile = (s, kind) => `${s.dir}/${kind}.log`;
exports.ledgerFile = ledgerFile;
const writeFileFor = (s, id) => `${s.dir}/approved-${id}.txt`;
exports.writeFileFor = writeFileFor;
/** The tool calls of a crash session's turn `turn` (not the last turn). */
function crashTurnCalls(s, turn, pacing) {
    const id = (k) => toolUseId(s.name, turn, k);
    const sleepS = (pacing.toolMs / 1000).toFixed(2);
    const bash = (k) => ({
        type: 'tool_use',
        id: id(k),
        name: 'Bash',
        input: {
            command: `echo ${id(k)} >> ${(0, exports.ledgerFile)(s, 'bash')} && sleep ${sleepS}`,
            description: 'Record this call in the ledger',
        },
    });
    const count = (k) => ({
        type: 'tool_use',
        id: id(k),
        name: 'AppendSlow',
        input: { file: (0, exports.ledgerFile)(s, 'count'), text: id(k), delayMs: pacing.toolMs, idempotent: false },
    });
    const idem = (k) => ({
        type: 'tool_use',
        id: id(k),
        name: 'AppendSlow',
        input: { file: (0, exports.ledgerFile)(s, 'idem'), text: id(k), delayMs: pacing.toolMs, idempotent: true },
    });
    switch (turn % 4) {
        case 0:
            return [bash(0)];
        case 1:
            return [count(0), idem(1)];
        case 2:
            return [
                {
                    type: 'tool_use',
                    id: id(0),
                    name: 'Write',
                    input: { file_path: (0, exports.writeFileFor)(s, id(0)), content: `${id(0)}\n` },
                },
            ];
        default:
            return [bash(0), count(1)];
    }
}
/** The scripted answer for a crash session's turn: tool calls, or the final text when `last`. */
function crashTurn(s, turn, last, pacing) {
    const text = last
        ? `Session ${s.name} is done after ${turn} turns; every call is accounted for.`
        : `Turn ${turn} of session ${s.name}: recording the next calls in the ledgers now.`;
    return {
        content: [{ type: 'text', text }, ...(last ? [] : crashTurnCalls(s, turn, pacing))],
        delayMs: pacing.eventDelayMs,
        textChunkSize: 6,
        jsonChunkSize: 24,
    };
}
/** The effect kind a crash-session tool_use counts in (from its input), or undefined (not a ledger call). */
function effectKindOf(block) {
    const input = (block.input ?? {});
    if (block.name === 'Bash' && typeof input.command === 'string' && input.command.includes('bash.log'))
        return 'bash';
    if (block.name === 'AppendSlow' && typeof input.file === 'string') {
        if (input.file.endsWith('/count.log'))
            return 'count';
        if (input.file.endsWith('/idem.log'))
            return 'idem';
    }
    if (block.name === 'Write' && typeof input.file_path === 'string' && input.file_path.includes('/approved-'))
        return 'write';
    return undefined;
}
exports.IDEMPOTENT = { bash: false, count: false, idem: true, write: true };
//# sourceMappingURL=plan.js.map