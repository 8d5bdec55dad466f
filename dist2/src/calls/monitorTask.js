"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.watchMonitorCommand = watchMonitorCommand;
exports.createMonitorTaskCalls = createMonitorTaskCalls;
// A Monitor task's own run (issue 19): the watch command a Monitor call recorded, run the way a
// background Bash task runs (tools/builtin/bash.ts `runBackgroundCommand`: the session's sandbox
// plan, its own process group, the reaper's marker, the timeout, the output cap), its stdout and
// stderr in the task's output file, the whole output stored at the end. Its stdout is also split
// into lines with the reference's limits (engine/monitorLines.ts: 500-character lines, 200 ms
// batches, a bucket of 10 events refilled one every 2 s) and each batch handed to `deliver` with a
// sequence number (1, 2, … in order; a batch is delivered only after the one before it), which the
// session keeps once (engine/monitorTasks.ts). The lines that come with the exit are not a batch:
// they are the end notification's `<event>` (the reference's way). When the rate limit gives up
// (30 s of suppressed output) its notice is the last batch and the command is killed.
// No Temporal here: src/activities/monitorTask.ts is the adapter (batches become signals to the
// session), and the in-process runner can call `watchMonitorCommand` / `runMonitorTask` directly.
const node_fs_1 = require("node:fs");
const node_string_decoder_1 = require("node:string_decoder");
const monitorLines_1 = require("../engine/monitorLines");
const bash_1 = require("../tools/builtin/bash");
const backgroundTask_1 = require("./backgroundTask");
/** A failed delivery is tried again this many times (the session keeps each seq once, so a doubled one is harmless). */
const DELIVERY_ATTEMPTS = 5;
const DELIVERY_BACKOFF_MS = 200;
function endState(r, rateStopped) {
    if (rateStopped || r.interrupted)
        return 'killed';
    if (r.timedOut)
        return 'timed_out';
    if (r.outputCapped)
        return 'failed';
    return r.exitCode === 0 ? 'completed' : 'failed';
}
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Delivers batches one after another, each tried a few times; a batch that cannot be delivered is reported and skipped. */
class Delivery {
    opts;
    stop;
    chain = Promise.resolve();
    seq = 0;
    constructor(opts, stop) {
        this.opts = opts;
        this.stop = stop;
    }
    send(emissions) {
        for (const e of emissions) {
            if (e.kind === 'stop')
                this.stop();
            const batch = { taskId: this.opts.taskId, seq: ++this.seq, kind: e.kind, text: e.text };
            this.chain = this.chain.then(() => this.deliver(batch));
        }
    }
    async deliver(batch) {
        for (let attempt = 1;; attempt++) {
            try {
                return await this.opts.deliver(batch);
            }
            catch (err) {
                if (attempt >= DELIVERY_ATTEMPTS) {
                    this.opts.warn?.(`monitor ${batch.taskId}: event ${batch.seq} was not delivered: ${err.message}`);
                    return;
                }
                await pause(DELIVERY_BACKOFF_MS * 2 ** (attempt - 1));
            }
        }
    }
    /** Resolves once every batch sent so far was delivered (or given up). */
    settled() {
        return this.chain;
    }
}
/**
 * Runs a monitor's watch command (`ctx.agent.cwd` is where it runs; `ctx.abortSignal` stops it) and
 * hands its stdout to `opts.deliver` as numbered batches; resolves when the command has ended and
 * every batch was delivered.
 */
async function watchMonitorCommand(spec, ctx, opts) {
    const now = opts.now ?? Date.now;
    const limits = { ...monitorLines_1.MONITOR_LIMITS, ...opts.limits };
    const lines = new monitorLines_1.MonitorLines(now(), limits);
    const decoder = new node_string_decoder_1.StringDecoder('utf8');
    // TaskStop (the caller's signal) or the rate limit's stop: either kills the process group.
    const stopper = new AbortController();
    const onAbort = () => stopper.abort();
    if (ctx.abortSignal.aborted)
        stopper.abort();
    else
        ctx.abortSignal.addEventListener('abort', onAbort, { once: true });
    let rateStopped = false;
    const delivery = new Delivery(opts, () => {
        rateStopped = true;
        stopper.abort();
    });
    let batchTimer;
    const flush = () => {
        batchTimer = undefined;
        delivery.send(lines.flush(now()));
    };
    const onStdout = (chunk) => {
        if (lines.push(decoder.write(chunk)) && !batchTimer)
            batchTimer = setTimeout(flush, limits.batchWindowMs);
    };
    try {
        const r = await (0, bash_1.runBackgroundCommand)(spec, { ...ctx, abortSignal: stopper.signal }, (bytes) => opts.onProgress?.(bytes), onStdout);
        clearTimeout(batchTimer);
        batchTimer = undefined;
        const state = endState(r, rateStopped);
        // The lines that came with the exit: the end notification's event (none after a stop or the expiry).
        let lastEvent;
        if (state === 'completed' || state === 'failed') {
            lines.push(decoder.end());
            for (const e of lines.flush(now(), true))
                if (e.kind === 'event')
                    lastEvent = e.text;
                else
                    delivery.send([e]);
        }
        await delivery.settled();
        return {
            state,
            exitCode: r.exitCode,
            signal: r.signal,
            outputBytes: r.outputBytes,
            events: lines.events(),
            lastSeq: delivery.seq,
            ...(lastEvent !== undefined ? { lastEvent } : {}),
            ...(rateStopped ? { rateStopped: true } : {}),
            ...(r.sandbox ? { sandboxed: r.sandbox.sandboxed, violations: r.sandbox.violations?.length ?? 0 } : {}),
            ...(r.outputCapped
                ? { error: `its output passed the ${r.outputCapped.capBytes}-byte limit; its process group was killed` }
                : {}),
        };
    }
    finally {
        clearTimeout(batchTimer);
        ctx.abortSignal.removeEventListener('abort', onAbort);
    }
}
function createMonitorTaskCalls(deps) {
    const background = (0, backgroundTask_1.createBackgroundTaskCalls)(deps);
    /** A monitor task's whole run for any scheduler: heartbeats, the watch, the output stored. */
    async function runMonitorTask(input, rt, deliver) {
        let outputBytes = 0;
        let lastSeq = 0;
        const beat = () => rt.heartbeat({ taskId: input.task.id, outputBytes, lastSeq });
        beat();
        const timer = setInterval(beat, backgroundTask_1.BACKGROUND_HEARTBEAT_MS);
        const counted = async (b) => {
            await deliver(b);
            lastSeq = b.seq;
        };
        try {
            let r;
            try {
                const ctx = await background.contextFor(input, rt.signal);
                const command = await background.wholeCommand(input);
                r = await watchMonitorCommand({ ...input.task, command }, ctx, {
                    taskId: input.task.id,
                    deliver: counted,
                    warn: (m) => rt.warn(m),
                    onProgress: (bytes) => {
                        outputBytes = bytes;
                    },
                });
            }
            catch (err) {
                const none = { exitCode: null, signal: null, outputBytes, events: 0, lastSeq };
                if (rt.signal.aborted)
                    return { state: 'killed', ...none, error: 'stopped before it started' };
                return { state: 'failed', ...none, error: err.message };
            }
            // The reference's last line of the output file, as a background command's (calls/backgroundTask.ts).
            const trailer = r.state === 'killed' ? '\n[killed]\n' : r.exitCode !== null ? `\n[exited with code ${r.exitCode}]\n` : '';
            if (trailer)
                await node_fs_1.promises.appendFile(input.task.outputPath, trailer).catch(() => undefined);
            const outputRef = await background.storeOutput(input.task.outputPath, rt.warn);
            return { ...r, ...(outputRef ? { outputRef } : {}) };
        }
        finally {
            clearInterval(timer);
        }
    }
    return { runMonitorTask };
}
//# sourceMappingURL=monitorTask.js.map