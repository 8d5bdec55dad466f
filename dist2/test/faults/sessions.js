"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sleep = exports.CRASH_TOOLS = void 0;
exports.within = within;
exports.startFaultSession = startFaultSession;
exports.startApprover = startApprover;
exports.waitForSessions = waitForSessions;
exports.checkSessions = checkSessions;
// Running the fault suite's sessions: start them, answer their approvals (again after a server
// restart, which loses pending updates), wait for each to end however long the faults take, and
// check each one's transcript against its ledgers.
const promises_1 = require("node:fs/promises");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const client_1 = require("../../src/client");
const configured_1 = require("../../src/stores/configured");
const messageStore_1 = require("../../src/stores/messageStore");
const check_1 = require("./check");
const plan_1 = require("./plan");
const leftovers_1 = require("../support/leftovers");
exports.CRASH_TOOLS = ['Bash', 'AppendSlow', 'Write', 'Read'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
exports.sleep = sleep;
/** Resolves with `p`, or with `fallback` after `ms` (a query to a dead worker can hang). */
async function within(p, ms, fallback) {
    let timer;
    const late = new Promise((r) => (timer = setTimeout(() => r(fallback), ms)));
    try {
        return await Promise.race([p.catch(() => fallback), late]);
    }
    finally {
        clearTimeout(timer);
    }
}
async function startFaultSession(client, workRoot, name, settings, extra = {}) {
    const dir = (0, node_path_1.join)(workRoot, name);
    await (0, promises_1.mkdir)(dir, { recursive: true });
    const id = `faults-${name}-${Date.now().toString(36)}`;
    await (0, client_1.startSession)(client, {
        id,
        taskQueue: settings.taskQueue,
        cwd: dir,
        prompt: `[${plan_1.SESSION_MARK} ${name}] ${extra.prompt ?? 'Record calls in the ledgers until told to stop.'}`,
        tools: extra.tools ?? exports.CRASH_TOOLS,
        // Reads and ledger calls run; Write asks, so that every fourth turn waits for an approval.
        permissionMode: 'default',
        rules: { allow: ['Bash', 'AppendSlow'], ask: [], deny: [] },
        // Bash gets an allowlist of the worker's environment: the leftover tag must be named to reach its processes.
        sandbox: { passEnv: [leftovers_1.TAG_ENV] },
        model: { model: 'claude-test', maxTokens: 4096 },
        maxTurns: 500,
        toolHeartbeatTimeoutMs: settings.toolHeartbeatTimeoutMs,
        maxHistoryBytesPerRun: settings.maxHistoryBytesPerRun,
        retryCapMs: settings.retryCapMs,
        approvalTimeoutMs: 60 * 60_000,
    });
    return { name, dir, id };
}
/**
 * Approves every pending ask after a short random delay, until `stop()`. An approval not applied
 * within `resendMs` (the server restarted and lost the update, or no worker took it) is sent again.
 */
function startApprover(client, sessions, opts = {}) {
    const sent = new Map();
    const pendingNow = new Set();
    let approvals = 0;
    let stopped = false;
    const loop = (async () => {
        while (!stopped) {
            pendingNow.clear();
            await Promise.all(sessions()
                .filter((s) => !s.result && !s.failure)
                .map(async (s) => {
                const status = await within((0, client_1.sessionStatus)(client, s.id), 3_000, undefined);
                for (const p of status?.pendingApprovals ?? []) {
                    pendingNow.add(p.toolUseId);
                    const last = sent.get(p.toolUseId);
                    if (last !== undefined && Date.now() - last < (opts.resendMs ?? 15_000))
                        continue;
                    sent.set(p.toolUseId, Date.now());
                    void (async () => {
                        await (0, exports.sleep)(300 + Math.random() * 1200);
                        const answer = await within((0, client_1.approveToolUse)(client, s.id, p.toolUseId, 'fault-suite'), 20_000, undefined);
                        if (answer?.status === 'applied')
                            approvals++;
                    })();
                }
            }));
            await (0, exports.sleep)(250);
        }
    })();
    return {
        /** Tool use ids waiting for an approval at the last look. */
        pending: () => pendingNow,
        approvals: () => approvals,
        async stop() {
            stopped = true;
            await loop;
        },
    };
}
/** Waits until every session ended (completed or not), polling describe() so that a server restart does not break the wait. */
async function waitForSessions(client, sessions, timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    while (sessions.some((s) => !s.result && !s.failure)) {
        if (Date.now() > deadline) {
            for (const s of sessions) {
                if (s.result || s.failure)
                    continue;
                // Say where it stands: the turn, the phase, an outage being waited out.
                const st = await within((0, client_1.sessionStatus)(client, s.id), 5_000, undefined);
                const where = st
                    ? `turn ${st.turn}, ${st.status}/${st.phase}${st.outage ? `, ${st.outage.what} outage: ${st.outage.lastError.slice(0, 300)}` : ''}`
                    : 'status query unanswered';
                s.failure = `did not end within ${Math.round(timeoutMs / 1000)} s (${where})`;
            }
            return;
        }
        for (const s of sessions.filter((x) => !x.result && !x.failure)) {
            const desc = await within(client.workflow.getHandle(s.id).describe(), 5_000, undefined);
            if (!desc || desc.status.name === 'RUNNING' || desc.status.name === 'CONTINUED_AS_NEW')
                continue;
            if (desc.status.name !== 'COMPLETED') {
                s.failure = `session workflow ${desc.status.name.toLowerCase()}`;
                continue;
            }
            const result = await within(client.workflow.getHandle(s.id).result(), 10_000, undefined);
            if (!result)
                continue;
            s.result = result;
            if (result.status !== 'completed')
                s.failure = `session ended ${result.status}: ${result.endReason}`;
        }
        await (0, exports.sleep)(500);
    }
}
/** Reads each ended session's transcript and ledgers and checks the invariants. */
async function checkSessions(storeDir, sessions, clearFailure) {
    const transcripts = new messageStore_1.TranscriptStore((0, configured_1.configuredBlobStore)({ storeDir }));
    for (const s of sessions) {
        if (!s.result)
            continue;
        try {
            s.transcript = await transcripts.load(s.result.head);
        }
        catch (err) {
            s.failure = `transcript unreadable: ${err.message}`;
            continue;
        }
        const ledgers = new Map();
        for (const kind of ['bash', 'count', 'idem'])
            ledgers.set(kind, (0, check_1.countLines)(await (0, promises_1.readFile)((0, plan_1.ledgerFile)(s, kind), 'utf8').catch(() => '')));
        const effects = (kind, id) => kind === 'write' ? ((0, node_fs_1.existsSync)((0, plan_1.writeFileFor)(s, id)) ? 1 : 0) : (ledgers.get(kind)?.get(id) ?? 0);
        const allIds = [...ledgers.values()].flatMap((m) => [...m.keys()]);
        s.check = (0, check_1.checkSession)(s.transcript, effects, allIds, clearFailure);
    }
}
//# sourceMappingURL=sessions.js.map