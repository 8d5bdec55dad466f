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
exports.followPrinted = followPrinted;
const client_1 = require("../client");
const workerCheck_1 = require("./workerCheck");
const printFormat_1 = require("./printFormat");
const options_1 = require("./options");
/** Follows the session to its end and prints it in the format; returns the exit code (130: detached with Ctrl-C). */
async function followPrinted(client, sessionId, o) {
    const out = o.out ?? ((l) => process.stdout.write(`${l}\n`));
    const p = new Printer(client, sessionId, o, out);
    if (o.format === 'stream-json')
        out(JSON.stringify((0, printFormat_1.initEvent)(o.init)));
    // Without a worker on the session's task queue it would wait silently: one line on stderr, as run.
    const watch = (0, workerCheck_1.watchForWorker)(client, () => (0, client_1.runningSession)(client, sessionId).then((s) => s.taskQueue, () => undefined));
    try {
        return await printUntilEnd(client, sessionId, p);
    }
    finally {
        watch.stop();
    }
}
async function printUntilEnd(client, sessionId, p) {
    const o = p.o;
    let detached = false;
    const detach = (0, options_1.waitForSignal)().then(() => (detached = true));
    let finished;
    const done = (0, client_1.sessionHandle)(client, sessionId)
        .result()
        .then((result) => ({ result }), (err) => ({ error: err.cause?.message ?? err.message }))
        .then((f) => (finished = f));
    for (;;) {
        await Promise.race([p.poll(), detach]);
        if (detached) {
            process.stderr.write(`\ndetached; the session keeps running.\n  re-attach:  durable-agent attach ${sessionId}\n  cancel:     durable-agent cancel ${sessionId}\n`);
            return 130;
        }
        if (finished)
            break;
        await Promise.race([new Promise((r) => setTimeout(r, o.intervalMs ?? 500)), done, detach]);
    }
    await p.poll(true);
    return p.finish(finished);
}
class Printer {
    client;
    sessionId;
    o;
    out;
    head;
    printed = 0;
    messages = [];
    audit;
    pending = new Set();
    warned = false;
    write;
    constructor(client, sessionId, o, out) {
        this.client = client;
        this.sessionId = sessionId;
        this.o = o;
        this.out = out;
        this.write = o.write ?? ((t) => process.stdout.write(t));
    }
    /** A poll: approvals to name on stderr, and (stream-json) the messages of turns that landed. */
    async poll(final = false) {
        const status = await (0, client_1.sessionStatus)(this.client, this.sessionId).catch(() => undefined);
        for (const a of status?.pendingApprovals ?? []) {
            if (this.pending.has(a.toolUseId))
                continue;
            this.pending.add(a.toolUseId);
            process.stderr.write(`durable-agent: approval needed: ${a.summary} — ${a.message} (durable-agent approve ${this.sessionId} ${a.toolUseId})\n`);
        }
        if (this.o.format !== 'stream-json')
            return;
        const head = status ? status.head : final ? await this.resultHead() : undefined;
        if (head === undefined || head === this.head)
            return;
        await this.load(head);
        await this.readAudit();
        const calls = this.modelCalls();
        const lines = (0, printFormat_1.messageEvents)(this.messages, this.printed, this.sessionId, (n) => calls[n], this.o.init.model);
        for (const l of lines)
            this.out(JSON.stringify(l));
        this.printed = this.messages.length;
    }
    async resultHead() {
        return (0, client_1.sessionHandle)(this.client, this.sessionId)
            .result()
            .then((r) => r.head, () => undefined);
    }
    /** The transcript up to the head, from the store the workers write. */
    async load(head, quiet = false) {
        try {
            const { TranscriptStore } = await Promise.resolve().then(() => __importStar(require('../stores/messageStore')));
            const { configuredBlobStore } = await Promise.resolve().then(() => __importStar(require('../stores/configured')));
            const { defaultStoreDir } = await Promise.resolve().then(() => __importStar(require('../workerDeps')));
            const store = new TranscriptStore(configuredBlobStore({ storeDir: this.o.storeDir ?? defaultStoreDir() }));
            this.messages = await store.load(head);
            this.head = head;
        }
        catch (err) {
            if (!this.warned && !quiet)
                process.stderr.write(`durable-agent: warning: the session's messages cannot be read from this host's store (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); only the result is printed\n`);
            this.warned = true;
            this.head = head;
        }
    }
    async readAudit() {
        try {
            const { buildAudit } = await Promise.resolve().then(() => __importStar(require('../audit')));
            this.audit = await buildAudit(this.client, this.sessionId);
        }
        catch {
            // The history could not be read: the lines go out without the model calls' ids and usage.
        }
    }
    /** The model calls that answered, in order: one per assistant message. */
    modelCalls() {
        return (this.audit?.modelCalls ?? [])
            .filter((c) => c.status === 'ok')
            .map((c) => ({
            model: c.model,
            ...(c.messageId ? { messageId: c.messageId } : {}),
            ...(c.requestId ? { requestId: c.requestId } : {}),
            ...(c.usage ? { usage: c.usage } : {}),
            ...(c.stopReason ? { stopReason: c.stopReason } : {}),
            ...(c.startedAt ? { startedAt: c.startedAt } : {}),
            ...(c.endedAt ? { endedAt: c.endedAt } : {}),
        }));
    }
    /** The result line (json, stream-json) or the final text (text); returns the exit code. */
    async finish(f) {
        await this.readAudit();
        if (this.head === undefined && f && 'result' in f)
            await this.load(f.result.head, true);
        const r = f && 'result' in f ? f.result : undefined;
        const status = r?.status ??
            (await (0, client_1.sessionHandle)(this.client, this.sessionId)
                .describe()
                .then((d) => d.status.name.toLowerCase(), () => 'failed'));
        const tools = this.audit?.toolCalls ?? [];
        const result = (0, printFormat_1.resultEvent)({
            sessionId: this.sessionId,
            status,
            reason: r?.endReason ?? (f && 'error' in f ? f.error : 'unknown'),
            lastText: r?.lastText ?? '',
            turns: this.head !== undefined && this.messages.length > 0 ? (0, printFormat_1.numTurns)(this.messages) : (r?.turns ?? 1),
            usage: r?.usage ?? { input_tokens: 0, output_tokens: 0 },
            durationMs: Date.now() - this.o.startedAt,
            calls: this.modelCalls(),
            denials: tools
                .filter((t) => t.decision?.behavior === 'deny')
                .map((t) => ({ tool_name: t.tool, tool_use_id: t.toolUseId, tool_input: t.input })),
            webSearches: tools.filter((t) => t.tool === 'WebSearch').length,
            webFetches: tools.filter((t) => t.tool === 'WebFetch').length,
            ...(this.o.maxTurns ? { maxTurns: this.o.maxTurns } : {}),
        });
        if (this.o.format === 'text') {
            const t = (0, printFormat_1.textOutput)(result);
            this.write(t.text);
            return t.exitCode;
        }
        const synthetic = this.o.format === 'stream-json' ? (0, printFormat_1.apiErrorEvent)(result) : undefined;
        if (synthetic)
            this.out(JSON.stringify(synthetic));
        this.out(JSON.stringify(result));
        return result['is_error'] === true ? 1 : 0;
    }
}
//# sourceMappingURL=printFollow.js.map