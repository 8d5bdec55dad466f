"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SCENARIOS = void 0;
exports.runScenarios = runScenarios;
const sessions_1 = require("./sessions");
const workerKills_1 = require("./workerKills");
const modelFaults_1 = require("./modelFaults");
const disk_1 = require("./disk");
exports.SCENARIOS = ['kills', 'restart', 'model', 'disk'];
/** Starts `n` crash sessions whose last turn comes once `finished()` and `minTurns` turns are done. */
async function startCrashSessions(ctx, prefix, n, finished, minTurns) {
    const sessions = [];
    const maxTurns = minTurns * 12;
    for (let i = 0; i < n; i++) {
        const name = `${prefix}${i + 1}`;
        ctx.handlers.set(name, ctx.crashHandler(name, (turn) => turn >= maxTurns || (turn >= minTurns && finished())));
        sessions.push(await (0, sessions_1.startFaultSession)(ctx.cluster.client, ctx.workRoot, name, ctx.settings));
    }
    return sessions;
}
async function workerKills(ctx) {
    let killsDone = false;
    const sessions = await startCrashSessions(ctx, 'kill', ctx.sizes.sessions, () => killsDone, ctx.sizes.minTurns);
    ctx.log(`worker kills: ${sessions.length} sessions started`);
    const approver = (0, sessions_1.startApprover)(ctx.cluster.client, () => sessions);
    const waiting = (0, sessions_1.waitForSessions)(ctx.cluster.client, sessions, 30 * 60_000);
    const ended = () => sessions.every((s) => s.result || s.failure);
    const { kills, continuesAsNew } = await (0, workerKills_1.runKiller)(ctx.cluster, sessions, () => approver.pending().size, { kills: ctx.sizes.kills, gapMs: [500, 2_000], seekMs: 12_000, workers: 2, log: ctx.log }, ended);
    killsDone = true;
    await waiting;
    await approver.stop();
    await (0, sessions_1.checkSessions)(ctx.store.dir, sessions);
    const violations = kills.length < ctx.sizes.kills
        ? [`only ${kills.length} of ${ctx.sizes.kills} kills were performed before the sessions ended`]
        : [];
    return {
        name: 'kills',
        title: 'Worker kills (SIGKILL, two workers)',
        sessions,
        kills,
        continuesAsNew,
        approvals: approver.approvals(),
        notes: [],
        violations,
    };
}
async function serverRestart(ctx) {
    let restartsDone = false;
    const sessions = await startCrashSessions(ctx, 'restart', ctx.sizes.restartSessions, () => restartsDone, 4);
    ctx.log(`server restart: ${sessions.length} sessions started`);
    const approver = (0, sessions_1.startApprover)(ctx.cluster.client, () => sessions);
    const waiting = (0, sessions_1.waitForSessions)(ctx.cluster.client, sessions, 20 * 60_000);
    const before = ctx.cluster.serverRestarts;
    const notes = [];
    for (let i = 0; i < ctx.sizes.restarts; i++) {
        await (0, sessions_1.sleep)(4_000 + Math.random() * 3_000);
        const t = Date.now();
        await ctx.cluster.restartServer(1_000 + Math.random() * 2_000);
        ctx.log(`server restart ${i + 1}/${ctx.sizes.restarts}: SIGKILL, back after ${Date.now() - t} ms on the same port and SQLite file`);
        const replaced = await ctx.cluster.replaceDead(2);
        if (replaced > 0)
            notes.push(`${replaced} worker(s) exited during the server outage and were replaced`);
    }
    restartsDone = true;
    await waiting;
    await approver.stop();
    await (0, sessions_1.checkSessions)(ctx.store.dir, sessions);
    return {
        name: 'restart',
        title: 'Server restart (SIGKILL of the dev server, SQLite file)',
        sessions,
        serverRestarts: ctx.cluster.serverRestarts - before,
        approvals: approver.approvals(),
        notes,
        violations: [],
    };
}
/**
 * Worker kills and model faults run together (independent sessions on the same workers: a kill may
 * also land in a faulty model call); the server restart and the disk faults run alone, after them.
 */
async function runScenarios(ctx, only) {
    const run = async (name) => {
        const t = Date.now();
        ctx.log(`--- scenario ${name}`);
        const r = name === 'kills'
            ? await workerKills(ctx)
            : name === 'restart'
                ? await serverRestart(ctx)
                : name === 'model'
                    ? await (0, modelFaults_1.runModelFaults)(ctx)
                    : await (0, disk_1.runDiskFaults)(ctx, (prefix, n, finished, minTurns) => startCrashSessions(ctx, prefix, n, finished, minTurns));
        ctx.log(`--- scenario ${name} done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
        return r;
    };
    const results = [];
    const together = ['kills', 'model'].filter((n) => only.includes(n));
    results.push(...(await Promise.all(together.map(run))));
    for (const name of ['restart', 'disk'])
        if (only.includes(name))
            results.push(await run(name));
    return results;
}
//# sourceMappingURL=scenarios.js.map