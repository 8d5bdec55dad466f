"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.addAttachCommand = addAttachCommand;
exports.addLsCommand = addLsCommand;
exports.addStatusCommand = addStatusCommand;
exports.addTranscriptCommand = addTranscriptCommand;
exports.addAuditCommand = addAuditCommand;
const common_1 = require("@temporalio/common");
const proto_1 = require("@temporalio/proto");
const client_1 = require("../../client");
const retry_1 = require("../../engine/retry");
const autonomyText_1 = require("../autonomyText");
const payloads_1 = require("../../temporal/payloads");
const definitions_1 = require("../../workflows/definitions");
const follow_1 = require("../follow");
const options_1 = require("../options");
function addAttachCommand(program) {
    (0, options_1.addConnectionOptions)(program
        .command('attach')
        .description('Follow a running session live')
        .argument('<id>')
        .option('--json', 'JSON lines')).action(async (id, o) => (0, options_1.withClient)(o, async (client) => {
        // Answered by the server alone (a query would wait for a worker, silently, when none runs).
        await (0, options_1.sessionExists)(client, id);
        await (0, options_1.followAndExit)(client, id, o);
    }));
}
function addLsCommand(program) {
    (0, options_1.addConnectionOptions)(program
        .command('ls')
        .description('List sessions')
        .option('--limit <n>', 'at most N', (0, options_1.positiveInt)('--limit'), 20)
        .option('--json', 'JSON lines')).action(async (o) => (0, options_1.withClient)(o, async (client) => {
        let n = 0;
        for await (const wf of listSessions(client)) {
            if (n++ >= o.limit)
                break;
            const row = {
                id: wf.id,
                status: wf.status,
                started: wf.started,
                prompt: wf.prompt,
                // Started by a schedule (durable-agent schedule add).
                ...(wf.schedule ? { schedule: wf.schedule } : {}),
            };
            if (row.status === 'waiting_for_model') {
                // Since when and until when: the session's status says.
                const st = await (0, client_1.sessionStatus)(client, wf.id).catch(() => undefined);
                if (st?.outage)
                    row.waiting = (0, retry_1.describeOutage)(st.outage, Date.now());
            }
            else if (row.status === 'waiting') {
                // A wake-up, cron jobs or background tasks: until when and why.
                const st = await (0, client_1.sessionStatus)(client, wf.id).catch(() => undefined);
                const line = st ? (0, autonomyText_1.waitingLine)(st) : undefined;
                if (line)
                    row.waiting = line;
            }
            (0, options_1.print)(o, row, `${row.id}  ${row.status.padEnd(17)} ${row.started}  ${row.schedule ? `[schedule ${row.schedule}] ` : ''}${row.prompt.replace(/\s+/g, ' ').slice(0, 60)}${row.waiting ? `\n    ${row.waiting}` : ''}`);
        }
        if (n === 0 && !o.json)
            console.log('no sessions');
    }));
}
function addStatusCommand(program) {
    (0, options_1.addConnectionOptions)(program.command('status').description("Show a session's status").argument('<id>').option('--json', 'JSON')).action(async (id, o) => (0, options_1.withClient)(o, async (client) => {
        const s = await (0, client_1.sessionStatus)(client, id);
        const desc = await (0, client_1.sessionHandle)(client, id)
            .describe()
            .catch(() => undefined);
        const memo = desc?.memo;
        const sandbox = memo?.sandbox;
        // A running subagent's approval waits on its own session: show it here with the id that answers it.
        const childPending = s.currentTurnWorkflowId
            ? await (0, follow_1.subagentApprovals)(client, id, s.currentTurnWorkflowId).catch(() => [])
            : [];
        const shown = {
            ...s,
            ...(childPending.length
                ? { subagentApprovals: childPending.map((c) => ({ session: c.childId, ...c.approval })) }
                : {}),
            ...(typeof sandbox === 'string' ? { sandbox } : {}),
            ...(Array.isArray(memo?.settings) ? { settings: memo.settings } : {}),
            ...(Array.isArray(memo?.memory) ? { memory: memo.memory } : {}),
        };
        (0, options_1.print)(o, s.outage ? { ...shown, waiting: (0, retry_1.describeOutage)(s.outage, Date.now()) } : shown, statusLines(s, memo, childPending).join('\n'));
    }));
}
/** `status` as text, a line per fact. */
function statusLines(s, memo, childPending) {
    const sandbox = memo?.sandbox;
    return [
        `session   ${s.sessionId}`,
        `status    ${s.status} (${s.phase})${s.endReason ? ` — ${s.endReason}` : ''}`,
        ...(typeof sandbox === 'string' ? [`sandbox   ${sandbox}`] : []),
        ...(Array.isArray(memo?.settings) ? [`settings  ${memo.settings.length ? memo.settings.join(', ') : 'none'}`] : []),
        ...(Array.isArray(memo?.memory) ? [`memory    ${memo.memory.length ? memo.memory.join(', ') : 'none'}`] : []),
        `turn      ${s.turn}   tool calls ${s.toolCalls}   runs ${s.runs + 1}`,
        `usage     ${s.usage.input_tokens} in / ${s.usage.output_tokens} out tokens${s.usage.cache_read_input_tokens || s.usage.cache_creation_input_tokens ? ` (prompt cache: ${s.usage.cache_read_input_tokens ?? 0} read, ${s.usage.cache_creation_input_tokens ?? 0} written)` : ''}`,
        ...(s.contextTokens !== undefined || s.compactions?.length
            ? [
                `context   ${s.contextTokens ?? '?'} tokens in the model's view${s.compactions?.length ? `; ${s.compactions.length} compaction(s), last: ${s.compactions[s.compactions.length - 1]?.trigger} in turn ${s.compactions[s.compactions.length - 1]?.turn}` : ''}`,
            ]
            : []),
        ...(s.outage ? [`waiting   ${(0, retry_1.describeOutage)(s.outage, Date.now())}`] : []),
        ...(0, autonomyText_1.autonomyLines)(s).map((l) => `autonomy  ${l}`),
        ...s.pendingApprovals.map((a) => `pending   ${a.toolUseId}  ${a.summary} — ${a.message}`),
        ...childPending.map((c) => `pending   ${c.approval.toolUseId}  ${c.via} › ${c.approval.summary} — ${c.approval.message} (durable-agent approve ${c.childId} ${c.approval.toolUseId})`),
        ...(s.hookNotices ?? []).map((n) => `hook      ${n.replace(/\s+/g, ' ').slice(0, 300)}`),
        ...(s.controlWrites ?? []).map((w) => `control   ⚠ ${(0, follow_1.controlWriteText)(w, memo?.cwd ?? s.context.cwd)} by ${w.summary || w.toolName} (turn ${w.turn}, ${w.toolUseId})`),
        ...(s.lastText ? [`last      ${s.lastText.replace(/\s+/g, ' ').slice(0, 200)}`] : []),
    ];
}
function addTranscriptCommand(program) {
    (0, options_1.addConnectionOptions)(program
        .command('transcript')
        .description("Print a session's conversation")
        .argument('<id>')
        .option('--store-dir <dir>', 'store (env DURABLE_AGENT_STORE_DIR)')
        .option('--store <url>', 'the shared store (env DURABLE_AGENT_STORE)')
        .option('--json', 'JSON')).action(async (id, o) => (0, options_1.withClient)(o, async (client) => {
        const s = await (0, client_1.sessionStatus)(client, id);
        const { TranscriptStore } = await Promise.resolve().then(() => __importStar(require('../../stores/messageStore')));
        const { configuredBlobStore } = await Promise.resolve().then(() => __importStar(require('../../stores/configured')));
        const { defaultStoreDir } = await Promise.resolve().then(() => __importStar(require('../../worker')));
        // The store the workers are configured with (DURABLE_AGENT_BLOB_STORE, else the files under the store dir).
        const store = new TranscriptStore(configuredBlobStore({ storeDir: o.storeDir ?? defaultStoreDir(), ...(o.store ? { store: o.store } : {}) }));
        const messages = await store.load(s.head);
        if (o.json)
            return (0, options_1.print)(o, messages, '');
        const out = transcriptLines(messages, s.compactions ?? []);
        // One write, awaited: the program exits right after, and a long transcript must reach a pipe whole.
        await new Promise((resolve) => process.stdout.write(`${out.join('\n')}\n`, () => resolve()));
    }));
}
/** The transcript as text: a line per block, with the compaction boundaries where they fell. */
function transcriptLines(messages, compactions) {
    // Compaction boundaries: from there on the model saw a summary of the messages above.
    const marks = new Map();
    const out = [];
    for (const c of compactions) {
        const line = `── compaction ${c.n} (${c.trigger}, turn ${c.turn}): ${c.tokensBefore} → ${c.tokensAfter} tokens; the model saw a summary of the ${c.summarizedThrough} messages above from here on ──`;
        marks.set(c.summarizedThrough, [...(marks.get(c.summarizedThrough) ?? []), line]);
    }
    for (const [i, m] of messages.entries()) {
        for (const line of marks.get(i) ?? [])
            out.push(line);
        const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
        for (const b of blocks) {
            if (b.type === 'text')
                out.push(`${m.role}: ${String(b.text)}`);
            else if (b.type === 'tool_use')
                out.push(`${m.role}: [tool_use ${String(b.id)}] ${String(b.name)} ${JSON.stringify(b.input)}`);
            else if (b.type === 'tool_result') {
                const c = typeof b.content === 'string' ? b.content : JSON.stringify(b.content);
                out.push(`${m.role}: [tool_result ${String(b.tool_use_id)}${b.is_error ? ' error' : ''}] ${c.slice(0, 300)}`);
            }
        }
    }
    for (const [i, lines] of marks)
        if (i >= messages.length)
            out.push(...lines);
    return out;
}
function addAuditCommand(program) {
    (0, options_1.addConnectionOptions)(program
        .command('audit')
        .description("A session's audit report, rebuilt from the Temporal history")
        .argument('<id>')
        .option('--json', 'JSON lines')).action(async (id, o) => (0, options_1.withClient)(o, async (client) => {
        await (0, options_1.sessionExists)(client, id);
        const audit = await Promise.resolve().then(() => __importStar(require('../../audit')));
        const report = await audit.buildAudit(client, id);
        process.stdout.write(o.json ? audit.auditJsonLines(report) : audit.formatAuditText(report));
    }));
}
/**
 * The sessions, newest first, read from the server's list without the SDK's eager decoding: one
 * session whose memo this client cannot decode (a codec it lacks) is listed with a note, and does
 * not stop the listing.
 */
async function* listSessions(client) {
    const converter = (0, payloads_1.converterOf)(client);
    let nextPageToken;
    do {
        const page = await client.workflowService.listWorkflowExecutions({
            namespace: client.options.namespace,
            query: `WorkflowType = 'sessionWorkflow'`,
            ...(nextPageToken ? { nextPageToken } : {}),
        });
        for (const wf of page.executions ?? []) {
            const statusPayload = wf.searchAttributes?.indexedFields?.[definitions_1.STATUS_SEARCH_ATTRIBUTE];
            let status = (proto_1.temporal.api.enums.v1.WorkflowExecutionStatus[wf.status ?? 0] ?? 'unknown')
                .replace(/^WORKFLOW_EXECUTION_STATUS_/, '')
                .toLowerCase();
            // Search attributes are never codec-encoded.
            const attr = statusPayload ? common_1.defaultPayloadConverter.fromPayload(statusPayload) : undefined;
            if (typeof attr === 'string')
                status = attr;
            else if (Array.isArray(attr) && typeof attr[0] === 'string')
                status = attr[0];
            let schedule;
            const scheduleMemo = wf.memo?.fields?.schedule;
            if (scheduleMemo) {
                const v = await (0, payloads_1.decodePayload)(converter, scheduleMemo).catch(() => undefined);
                if (typeof v === 'string')
                    schedule = v;
            }
            let prompt = '';
            const memo = wf.memo?.fields?.prompt;
            if (memo) {
                try {
                    prompt = String((await (0, payloads_1.decodePayload)(converter, memo)) ?? '');
                }
                catch (err) {
                    prompt = `(memo unreadable by this client: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]})`;
                }
            }
            const seconds = Number(wf.startTime?.seconds ?? 0);
            const started = new Date(seconds * 1000 + Math.floor((wf.startTime?.nanos ?? 0) / 1e6)).toISOString();
            yield { id: wf.execution?.workflowId ?? '?', status, started, prompt, ...(schedule ? { schedule } : {}) };
        }
        nextPageToken = page.nextPageToken && page.nextPageToken.length > 0 ? page.nextPageToken : undefined;
    } while (nextPageToken);
}
//# sourceMappingURL=sessions.js.map