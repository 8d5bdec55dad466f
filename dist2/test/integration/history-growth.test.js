"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: a long session's transcript grows past the 2 MB payload limit while no run's
// history does. The transcript lives in the message store (workflows carry only its head hash),
// so each turn adds about the same number of history bytes at turn 5 as at turn 100, and the
// session continues-as-new at a turn boundary when a run's history grows too large.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_crypto_1 = require("node:crypto");
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const history_1 = require("../support/history");
const definitions_1 = require("../../src/workflows/definitions");
(0, node_test_1.after)(temporal_1.closeTestEnv);
const MiB = 1024 * 1024;
const READS_PER_TURN = 3;
const FILE_BYTES = 10 * 1024;
const pad = (n) => String(n).padStart(3, '0');
const toolUseId = (turn, k) => `toolu_t${pad(turn)}_${k}`;
/** `turns × READS_PER_TURN` distinct 10 KB files (random content: nothing dedupes), same path length each. */
async function makeFiles(dir, turns) {
    const path = (turn, k) => (0, node_path_1.join)(dir, 'files', `t${pad(turn)}-${k}.txt`);
    await (0, promises_1.mkdir)((0, node_path_1.join)(dir, 'files'));
    const lines = FILE_BYTES / 80;
    for (let turn = 1; turn <= turns; turn++) {
        for (let k = 0; k < READS_PER_TURN; k++) {
            const body = [];
            for (let i = 0; i < lines; i++)
                body.push(`${`t${pad(turn)}-${k} line ${String(i).padStart(3, '0')} `}${(0, node_crypto_1.randomBytes)(32).toString('hex')}`.slice(0, 79));
            await (0, promises_1.writeFile)(path(turn, k), `${body.join('\n')}\n`);
        }
    }
    return path;
}
/** Turns 1..turns each read that turn's files; the next request ends with text. */
function readScript(turns, fileOf) {
    return (req) => {
        const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
        if (turn > turns)
            return (0, fakeAnthropic_1.textResponse)(`Read all ${turns * READS_PER_TURN} files.`);
        return (0, fakeAnthropic_1.toolUseResponse)(Array.from({ length: READS_PER_TURN }, (_, k) => ({
            id: toolUseId(turn, k),
            name: 'Read',
            input: { file_path: fileOf(turn, k) },
        })));
    };
}
/** The last request holds every tool_result of the session, in order, with the files' contents. */
function assertWholeTranscript(last, turns) {
    const results = last.messages.flatMap((m) => m.role === 'user' && Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_result') : []);
    const expected = Array.from({ length: turns }, (_, t) => Array.from({ length: READS_PER_TURN }, (_, k) => toolUseId(t + 1, k))).flat();
    strict_1.default.deepEqual(results.map((r) => r.tool_use_id), expected);
    results.forEach((r, i) => {
        strict_1.default.notEqual(r.is_error, true, JSON.stringify(r).slice(0, 300));
        const turn = Math.floor(i / READS_PER_TURN) + 1;
        strict_1.default.match(JSON.stringify(r.content), new RegExp(`t${pad(turn)}-${i % READS_PER_TURN} line 127 `));
    });
    return Buffer.byteLength(JSON.stringify(last.messages));
}
(0, node_test_1.test)('integration: 100 turns × 3 Reads of 10 KB: transcript > 3 MB, every run < 4 MiB, bytes per turn flat', async () => {
    const TURNS = 100;
    await (0, agent_1.withAgent)({ fake: { textChunkSize: 200, jsonChunkSize: 200 } }, async ({ fake, start, workDir, client }) => {
        const fileOf = await makeFiles(workDir, TURNS);
        fake.script(readScript(TURNS, fileOf));
        const t0 = Date.now();
        // A model whose window holds the whole transcript: no clearing or compaction (context-window.test covers those).
        const handle = await start({
            prompt: 'read every file, three per turn',
            tools: ['Read'],
            maxTurns: TURNS + 10,
            contextManagement: { contextWindow: 10_000_000 },
        });
        const result = await handle.result();
        const seconds = (Date.now() - t0) / 1000;
        strict_1.default.equal(result.status, 'completed', result.endReason);
        strict_1.default.equal(result.turns, TURNS + 1);
        fake.assertDone();
        const requests = fake.messageRequests();
        strict_1.default.equal(requests.length, TURNS + 1);
        const transcriptBytes = assertWholeTranscript(requests[requests.length - 1], TURNS);
        strict_1.default.ok(transcriptBytes > 3 * MiB, `the model got ${(0, history_1.fmtBytes)(transcriptBytes)}; expected > 3 MiB`);
        const runs = await (0, history_1.sessionRuns)(client, handle.workflowId, handle.firstExecutionRunId);
        const [t5, t100] = await (0, history_1.turnBytes)(client, handle.workflowId, runs, [5, 100]);
        strict_1.default.ok(t5 && t100);
        const maxRun = Math.max(...runs.map((r) => r.bytes));
        const diff = Math.abs(t100.total - t5.total) / t5.total;
        console.log(`[history] ${TURNS + 1} turns in ${seconds.toFixed(1)} s (${((seconds * 1000) / (TURNS + 1)).toFixed(0)} ms/turn); ` +
            `last request's transcript ${(0, history_1.fmtBytes)(transcriptBytes)}; ` +
            `${runs.length} session run(s): ${runs.map((r) => `${(0, history_1.fmtBytes)(r.bytes)}/${r.events} events`).join(', ')}; max ${(0, history_1.fmtBytes)(maxRun)}`);
        for (const t of [t5, t100]) {
            console.log(`[history] turn ${t.turn} (run ${t.run + 1}): ${t.total} B = session ${t.sessionBytes} B + turn child ${t.childBytes} B`);
        }
        console.log(`[history] bytes per turn differ by ${(diff * 100).toFixed(1)} % between turn 5 and turn 100`);
        strict_1.default.ok(maxRun < 4 * MiB, `a session run's history is ${(0, history_1.fmtBytes)(maxRun)}`);
        strict_1.default.ok(diff < 0.2, `turn 5: ${t5.total} B, turn 100: ${t100.total} B`);
    });
});
(0, node_test_1.test)('integration: with a small maxHistoryBytesPerRun the session continues-as-new several times; the model still gets the whole transcript; read state survives', async () => {
    const TURNS = 30;
    const LIMIT = 32 * 1024;
    await (0, agent_1.withAgent)({ fake: { textChunkSize: 200, jsonChunkSize: 200 } }, async ({ fake, start, workDir, client }) => {
        const fileOf = await makeFiles(workDir, TURNS);
        const reads = readScript(TURNS, fileOf);
        // Then an Edit of a file read in the first run: the read-file state crosses continue-as-new.
        const edited = fileOf(1, 0);
        fake.script((req) => {
            const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
            if (turn === TURNS + 1)
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_edit',
                        name: 'Edit',
                        input: { file_path: edited, old_string: 't001-0 line 000 ', new_string: 'EDITED line 000 ' },
                    },
                ]);
            if (turn === TURNS + 2)
                return (0, fakeAnthropic_1.textResponse)('done');
            return reads(req);
        });
        const t0 = Date.now();
        const handle = await start({
            prompt: 'read every file, three per turn',
            tools: ['Read', 'Edit'],
            maxTurns: TURNS + 10,
            maxHistoryBytesPerRun: LIMIT,
            contextManagement: { contextWindow: 10_000_000 },
        });
        const result = await handle.result();
        const seconds = (Date.now() - t0) / 1000;
        strict_1.default.equal(result.status, 'completed', result.endReason);
        strict_1.default.equal(result.turns, TURNS + 2);
        fake.assertDone();
        const requests = fake.messageRequests();
        strict_1.default.equal(requests.length, TURNS + 2);
        const transcriptBytes = assertWholeTranscript(requests[TURNS], TURNS);
        const [editResult] = (0, fakeAnthropic_1.lastToolResults)(requests[TURNS + 1]);
        strict_1.default.equal(editResult?.tool_use_id, 'toolu_edit');
        strict_1.default.notEqual(editResult?.is_error, true, JSON.stringify(editResult));
        strict_1.default.match(await (0, promises_1.readFile)(edited, 'utf8'), /^EDITED line 000 /);
        const runs = await (0, history_1.sessionRuns)(client, handle.workflowId, handle.firstExecutionRunId);
        console.log(`[history] maxHistoryBytesPerRun ${(0, history_1.fmtBytes)(LIMIT)}: ${TURNS + 2} turns in ${seconds.toFixed(1)} s, ${runs.length} runs: ` +
            `${runs.map((r) => (0, history_1.fmtBytes)(r.bytes)).join(', ')}; last request's transcript ${(0, history_1.fmtBytes)(transcriptBytes)}`);
        strict_1.default.ok(runs.length >= 3, `${runs.length} run(s)`);
        // Every turn ran exactly once, in order, across the runs; the carried state counts the runs and calls.
        const perTurn = (0, history_1.sessionBytesPerTurn)(runs, handle.workflowId);
        strict_1.default.deepEqual([...perTurn.keys()], Array.from({ length: TURNS + 2 }, (_, i) => i + 1));
        const runOfTurn = [...perTurn.values()].map((t) => t.run);
        strict_1.default.deepEqual(runOfTurn, [...runOfTurn].sort((a, b) => a - b));
        // Each run stops at the first turn boundary past the limit: no run is much bigger than limit + one turn.
        for (const r of runs)
            strict_1.default.ok(r.bytes < LIMIT + 16 * 1024, `a run of ${(0, history_1.fmtBytes)(r.bytes)}`);
        const status = await handle.query(definitions_1.statusQuery);
        strict_1.default.equal(status.runs, runs.length - 1);
        strict_1.default.equal(status.toolCalls, TURNS * READS_PER_TURN + 1);
    });
});
//# sourceMappingURL=history-growth.test.js.map