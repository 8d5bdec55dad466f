"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.KILL_PHASES = void 0;
exports.runKiller = runKiller;
exports.killsByPhase = killsByPhase;
const cluster_1 = require("./cluster");
const sessions_1 = require("./sessions");
exports.KILL_PHASES = ['model stream', 'tool call', 'approval wait', 'continue-as-new'];
/** Tracks each session's run id; a change seen less than `windowMs` ago counts as "in continue-as-new". */
class RunTracker {
    windowMs;
    runs = new Map();
    changedAt = 0;
    continuesAsNew = 0;
    constructor(windowMs) {
        this.windowMs = windowMs;
    }
    async poll(client, live) {
        await Promise.all(live.map(async (s) => {
            const desc = await (0, sessions_1.within)(client.workflow.getHandle(s.id).describe(), 2_000, undefined);
            if (!desc)
                return;
            const was = this.runs.get(s.id);
            if (was !== undefined && was !== desc.runId) {
                this.changedAt = Date.now();
                this.continuesAsNew++;
            }
            this.runs.set(s.id, desc.runId);
        }));
    }
    recent() {
        return Date.now() - this.changedAt < this.windowMs;
    }
}
async function observe(client, sessions, runs, approvalsPending) {
    const byPid = new Map();
    const live = sessions.filter((s) => !s.result && !s.failure);
    await runs.poll(client, live);
    // The running turn workflows (`<session>/turn-<n>`) and their started activities.
    const turns = [];
    for await (const wf of client.workflow.list({ query: 'ExecutionStatus = "Running"' })) {
        if (/\/turn-\d+$/.test(wf.workflowId) && live.some((s) => wf.workflowId.startsWith(`${s.id}/`)))
            turns.push(wf.workflowId);
    }
    await Promise.all(turns.map(async (id) => {
        const desc = await (0, sessions_1.within)(client.workflow.getHandle(id).describe(), 2_000, undefined);
        for (const a of desc?.raw.pendingActivities ?? []) {
            // PENDING_ACTIVITY_STATE_STARTED = 2
            if (Number(a.state) !== 2)
                continue;
            const pid = cluster_1.Cluster.identityPid(a.lastWorkerIdentity);
            if (pid === undefined)
                continue;
            const type = a.activityType?.name ?? '';
            const phase = type === 'callModel' ? 'model stream' : type === 'runToolUse' ? 'tool call' : undefined;
            if (!phase)
                continue;
            const set = byPid.get(pid) ?? new Set();
            set.add(phase);
            byPid.set(pid, set);
        }
    }));
    return { byPid, approvals: approvalsPending() > 0, continued: runs.recent() };
}
/** Kills workers until `opts.kills` kills are done or `done()` says the sessions ended; returns the records. */
async function runKiller(cluster, sessions, approvalsPending, opts, done) {
    const kills = [];
    const runs = new RunTracker(1_500);
    // Runs are watched all along (not only while looking for a kill's moment): every continue-as-new counts.
    let watching = true;
    const watcher = (async () => {
        while (watching && !done()) {
            await runs.poll(cluster.client, sessions.filter((s) => !s.result && !s.failure));
            await (0, sessions_1.sleep)(300);
        }
    })();
    const pick = (xs) => xs[Math.floor(Math.random() * xs.length)];
    while (kills.length < opts.kills && !done()) {
        await (0, sessions_1.sleep)(opts.gapMs[0] + Math.random() * (opts.gapMs[1] - opts.gapMs[0]));
        const target = exports.KILL_PHASES[kills.length % exports.KILL_PHASES.length];
        const until = Date.now() + opts.seekMs;
        let victim;
        let seen = [];
        while (!done()) {
            const obs = await observe(cluster.client, sessions, runs, approvalsPending);
            const live = cluster.workers.filter((w) => w.child.pid !== undefined);
            const phasesOf = (w) => {
                const s = new Set(obs.byPid.get(w.child.pid ?? -1) ?? []);
                if (obs.approvals)
                    s.add('approval wait');
                if (obs.continued)
                    s.add('continue-as-new');
                return exports.KILL_PHASES.filter((p) => s.has(p));
            };
            const candidates = live.filter((w) => phasesOf(w).includes(target));
            if (candidates.length > 0 || Date.now() > until) {
                victim = candidates.length > 0 ? pick(candidates) : live.length > 0 ? pick(live) : undefined;
                seen = victim ? phasesOf(victim) : [];
                break;
            }
            await (0, sessions_1.sleep)(100);
        }
        if (!victim)
            break;
        await cluster.killWorker(victim);
        kills.push({ target, seen, worker: victim.name, at: Date.now() });
        opts.log(`kill ${kills.length}/${opts.kills}: ${victim.name} (aimed at ${target}; it was in: ${seen.join(', ') || 'nothing observed'})`);
        await cluster.replaceDead(opts.workers);
    }
    watching = false;
    await watcher;
    return { kills, continuesAsNew: runs.continuesAsNew };
}
/** `model stream 6, tool call 7, …` — how many kills landed in each phase (a kill may be in several). */
function killsByPhase(kills) {
    const out = {
        'model stream': 0,
        'tool call': 0,
        'approval wait': 0,
        'continue-as-new': 0,
        'none observed': 0,
    };
    for (const k of kills) {
        if (k.seen.length === 0)
            out['none observed']++;
        for (const p of k.seen)
            out[p]++;
    }
    return out;
}
//# sourceMappingURL=workerKills.js.map