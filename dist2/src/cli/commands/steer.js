"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.addInterruptCommand = addInterruptCommand;
exports.addSendCommand = addSendCommand;
exports.addApproveCommand = addApproveCommand;
exports.addDenyCommand = addDenyCommand;
exports.addCancelCommand = addCancelCommand;
const client_1 = require("../../client");
const options_1 = require("../options");
function addInterruptCommand(program) {
    (0, options_1.addConnectionOptions)(program
        .command('interrupt')
        .description('Interrupt the running turn (in-flight tools are cancelled)')
        .argument('<id>')
        .option('--json', 'JSON')).action(async (id, o) => (0, options_1.withClient)(o, async (client) => {
        await (0, client_1.interruptSession)(client, id, (0, options_1.identity)());
        (0, options_1.print)(o, { session: id, interrupted: true }, `interrupt sent to ${id}`);
    }));
}
function addSendCommand(program) {
    (0, options_1.addConnectionOptions)(program
        .command('send')
        .description('Send a follow-up message to a session')
        .argument('<id>')
        .argument('<message...>')
        .option('--json', 'JSON')).action(async (id, words, o) => (0, options_1.withClient)(o, async (client) => {
        const text = words.join(' ').trim();
        if (!text)
            throw new options_1.UsageError('the message is empty');
        await (0, client_1.sendMessage)(client, id, text);
        (0, options_1.print)(o, { session: id, sent: text }, `message sent to ${id}`);
    }));
}
function addApproveCommand(program) {
    (0, options_1.addConnectionOptions)(program
        .command('approve')
        .description('Approve a pending tool call')
        .argument('<id>')
        .argument('[tool_use_id]')
        .option('--by <identity>', 'who approves', (0, options_1.identity)())
        .option('--json', 'JSON')).action(async (id, toolUseId, o) => (0, options_1.withClient)(o, async (client) => {
        const r = await (0, client_1.approveToolUse)(client, id, toolUseId, o.by);
        (0, options_1.print)(o, { session: id, decision: 'approve', ...r }, r.status === 'applied'
            ? `approved ${r.toolUseId}`
            : r.status === 'not_applied'
                ? notAppliedText(r)
                : pendingText('approve', id, r));
        if (r.status === 'not_applied')
            process.exitCode = 1;
    }));
}
function addDenyCommand(program) {
    (0, options_1.addConnectionOptions)(program
        .command('deny')
        .description('Deny a pending tool call')
        .argument('<id>')
        .argument('[tool_use_id]')
        .option('--reason <text>', 'told to the model')
        .option('--by <identity>', 'who denies', (0, options_1.identity)())
        .option('--json', 'JSON')).action(async (id, toolUseId, o) => (0, options_1.withClient)(o, async (client) => {
        const r = await (0, client_1.denyToolUse)(client, id, toolUseId, o.reason, o.by);
        (0, options_1.print)(o, { session: id, decision: 'deny', ...r }, r.status === 'applied'
            ? `denied ${r.toolUseId}`
            : r.status === 'not_applied'
                ? notAppliedText(r)
                : pendingText('deny', id, r));
        if (r.status === 'not_applied')
            process.exitCode = 1;
    }));
}
function addCancelCommand(program) {
    (0, options_1.addConnectionOptions)(program
        .command('cancel')
        .description('Cancel a session (in-flight tools are cancelled)')
        .argument('<id>')
        .option('--json', 'JSON')).action(async (id, o) => (0, options_1.withClient)(o, async (client) => {
        await (0, options_1.sessionExists)(client, id);
        await (0, client_1.sessionHandle)(client, id).cancel();
        (0, options_1.print)(o, { session: id, cancelled: true }, `cancel requested for ${id}`);
    }));
}
/** An approve/deny that came too late: what counted instead. */
function notAppliedText(r) {
    return `not applied: ${r.toolUseId} was ${r.decision === 'approve' ? 'approved' : 'denied'} — ${r.outcome}`;
}
/** An approve/deny that the server holds until a worker takes it: say so, and how to check. */
function pendingText(decision, id, r) {
    return (`${decision} of ${r.toolUseId ?? 'the pending call'} sent to ${id}, but no worker has taken it yet: it is applied when a worker ` +
        `for task queue ${r.taskQueue} runs (unless the Temporal server restarts first). Check with: durable-agent status ${id}`);
}
//# sourceMappingURL=steer.js.map