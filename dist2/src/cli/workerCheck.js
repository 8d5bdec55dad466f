"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LIVE_POLLER_MS = void 0;
exports.livePollers = livePollers;
exports.noWorkerLine = noWorkerLine;
exports.workerGraceMs = workerGraceMs;
exports.watchForWorker = watchForWorker;
const proto_1 = require("@temporalio/proto");
/**
 * A poller that stopped stays in the server's list for minutes with its last access time; a live
 * one polls again at least every long-poll interval (one minute on the server). Older than this: gone.
 */
exports.LIVE_POLLER_MS = 90_000;
/** The workers (poller identities) that polled the task queue's workflow tasks in the last LIVE_POLLER_MS. */
async function livePollers(client, taskQueue, now = Date.now()) {
    const res = await client.workflowService.describeTaskQueue({
        namespace: client.options.namespace,
        taskQueue: { name: taskQueue, kind: proto_1.temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
        taskQueueType: proto_1.temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
    });
    const live = new Set();
    for (const p of res.pollers ?? []) {
        const t = p.lastAccessTime;
        const at = t ? Number(t.seconds ?? 0) * 1000 + Math.floor((t.nanos ?? 0) / 1e6) : 0;
        if (now - at <= exports.LIVE_POLLER_MS)
            live.add(p.identity ?? '?');
    }
    return [...live];
}
/** The one line `run`/`attach` print when no worker polls the queue. */
function noWorkerLine(taskQueue) {
    return `durable-agent: warning: no worker polls task queue "${taskQueue}": the session waits until one does. Start one with \`durable-agent up\` (a background service) or \`durable-agent worker\`.`;
}
/** Grace before the first check (a worker started at the same moment needs a few seconds): env DURABLE_AGENT_WORKER_GRACE_MS, default 3000. */
function workerGraceMs(env = process.env) {
    const n = Number(env.DURABLE_AGENT_WORKER_GRACE_MS);
    return env.DURABLE_AGENT_WORKER_GRACE_MS && Number.isFinite(n) && n >= 0 ? n : 3_000;
}
/**
 * Watches the queue while a session is followed: after the grace period and then every 15 s, until
 * a check finds no live worker (one line on stderr, once) or `stop()` is called. A failed check
 * says nothing (the follow loop reports an unreachable server itself).
 */
function watchForWorker(client, taskQueue, write = (l) => process.stderr.write(`${l}\n`)) {
    let stopped = false;
    let timer;
    const check = async () => {
        if (stopped)
            return;
        try {
            const queue = await taskQueue();
            if (stopped || queue === undefined)
                return;
            if ((await livePollers(client, queue)).length === 0) {
                if (!stopped)
                    write(noWorkerLine(queue));
                return;
            }
        }
        catch {
            // the session ended, or the server is not answering right now
        }
        if (!stopped)
            timer = setTimeout(() => void check(), 15_000).unref();
    };
    timer = setTimeout(() => void check(), workerGraceMs()).unref();
    return {
        stop: () => {
            stopped = true;
            if (timer)
                clearTimeout(timer);
        },
    };
}
//# sourceMappingURL=workerCheck.js.map