"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.StreamingToolExecution = exports.STREAMED_TOOL_USE_SIGNAL = void 0;
exports.startsEarly = startsEarly;
exports.earlyStartable = earlyStartable;
const ids_1 = require("./ids");
/** The signal a model activity sends its own turn workflow for each completed tool_use block. */
exports.STREAMED_TOOL_USE_SIGNAL = ids_1.SIGNALS.streamedToolUse;
/** Whether a described block lets an early start happen at all (and lets later blocks start). */
function startsEarly(d) {
    return d.known && d.concurrencySafe && d.mayAsk !== true;
}
/**
 * Which blocks of one streamed message may start now, in block order: a block starts only when
 * it and every block before it are described and safe (known, concurrency-safe for their input,
 * not asking for approval) — an unsafe or undecided block stops the scan, so nothing after it
 * starts before the message is complete — and while fewer than `max` early calls run.
 */
function earlyStartable(entries, running, max) {
    const out = [];
    let inFlight = running;
    for (let i = 0; i < entries.length; i++) {
        const e = entries[i];
        if (!e.description || !startsEarly(e.description))
            break;
        if (e.started || e.deferred)
            continue;
        if (inFlight >= max)
            break;
        out.push(i);
        inFlight++;
    }
    return out;
}
const UNKNOWN = (name) => ({
    known: false,
    concurrencySafe: false,
    readOnly: false,
    idempotent: false,
    summary: name,
});
/**
 * One turn's early starts. `add` takes streamed blocks (a signal handler, a stream callback);
 * `finish` closes the intake when the model call ended and hands over what the final message
 * claims. Blocks are described in arrival order, in one call per burst.
 */
class StreamingToolExecution {
    input;
    exec;
    onStart;
    streams = new Map();
    executions = new Map();
    descriptions = new Map();
    running = 0;
    pumping = false;
    again = false;
    closed = false;
    /** Blocks that arrived after the intake closed (a late signal): never started. */
    late = [];
    constructor(input, exec, onStart) {
        this.input = input;
        this.exec = exec;
        this.onStart = onStart;
    }
    /** Ids started early so far (for progress views). */
    startedIds() {
        return [...this.executions.keys()];
    }
    add(item) {
        if (this.closed) {
            this.late.push(item);
            return;
        }
        const entries = this.streams.get(item.stream) ?? [];
        // A repeated signal (the same block delivered twice) changes nothing.
        if (entries.some((e) => e.item.index === item.index || e.id === item.block.id))
            return;
        entries.push({ id: item.block.id, item, started: false });
        entries.sort((a, b) => a.item.index - b.item.index);
        this.streams.set(item.stream, entries);
        void this.pump();
    }
    async pump() {
        if (this.pumping) {
            this.again = true;
            return;
        }
        this.pumping = true;
        try {
            do {
                this.again = false;
                if (this.closed || this.exec.isInterrupted())
                    return;
                const undescribed = [];
                for (const entries of this.streams.values()) {
                    for (const e of entries) {
                        if (e.description)
                            continue;
                        const known = this.descriptions.get(e.id);
                        if (known)
                            e.description = known;
                        else
                            undescribed.push(e);
                    }
                }
                if (undescribed.length > 0) {
                    let ds;
                    try {
                        ds = await this.exec.describeStreamed(undescribed.map((e) => e.item), this.input.context);
                    }
                    catch {
                        ds = [];
                    }
                    undescribed.forEach((e, i) => {
                        // Safety unknown: it does not start early, and nothing after it does (invariant 3).
                        const d = ds[i] ?? UNKNOWN(e.item.block.name);
                        e.description = d;
                        if (!this.descriptions.has(e.id))
                            this.descriptions.set(e.id, d);
                    });
                    if (this.closed || this.exec.isInterrupted())
                        return;
                }
                this.startEligible();
            } while (this.again);
        }
        finally {
            this.pumping = false;
        }
    }
    startEligible() {
        for (const entries of this.streams.values()) {
            for (const e of entries) {
                // Started from another stream (the same id streamed again) or recorded in an earlier turn: never again.
                if (!e.started && (this.executions.has(e.id) || this.input.priorRecords?.has(e.id)))
                    e.started = true;
            }
            for (const i of earlyStartable(entries, this.running, this.input.maxConcurrency)) {
                const e = entries[i];
                const description = e.description;
                const handle = this.exec.startStreamed(e.item, this.input.context, description);
                if (!handle) {
                    e.deferred = true;
                    continue;
                }
                e.started = true;
                const run = { ...handle, item: e.item, description, done: false };
                this.executions.set(e.id, run);
                this.running++;
                this.onStart?.(e.item, description);
                const settle = () => {
                    run.done = true;
                    this.running--;
                    void this.pump();
                };
                handle.result.then(settle, settle);
            }
        }
    }
    /**
     * The model call is over: no more early starts. `finalIds` are the tool_use ids of the final
     * message (none when the turn was interrupted or failed). Executions of those ids are handed
     * over; the others are discarded — cancelled when still running — and reported once they have
     * stopped (`discarded` resolves then; the tool phase awaits it, so that nothing discarded still
     * runs alongside a call that must run alone).
     */
    finish(finalIds, reason) {
        this.closed = true;
        const wanted = new Set(finalIds);
        const reuse = new Map();
        const dropped = [];
        for (const [id, run] of this.executions) {
            if (wanted.has(id))
                reuse.set(id, { result: run.result, cancel: run.cancel, description: run.description });
            else
                dropped.push(run);
        }
        const discarded = Promise.all(dropped.map(async (run) => {
            if (!run.done)
                run.cancel();
            // What it came to: a real completion (its effect stays), or stopped (by this, or by an interrupt).
            const outcome = await run.result.catch(() => undefined);
            const completed = outcome?.kind === 'ask' || (outcome?.kind === 'done' && outcome.record.status !== 'interrupted');
            return {
                toolUseId: run.item.block.id,
                toolName: run.item.block.name,
                summary: run.description.summary,
                stream: run.item.stream,
                state: completed ? 'completed' : 'cancelled',
                reason,
            };
        }));
        return { reuse, descriptions: new Map(this.descriptions), discarded };
    }
}
exports.StreamingToolExecution = StreamingToolExecution;
//# sourceMappingURL=streaming.js.map