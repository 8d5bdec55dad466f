"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: a session outlives its model's context window, the reference's way. The fake API
// enforces a 30k-token window (HTTP 400 "prompt is too long: N tokens > 30000 maximum", as the API
// answers); the session reads 150 files, one per turn. Old tool results are cleared, the session
// auto-compacts before the threshold (compact-<n> activities), and — once the endpoint's window
// shrinks below what the session was told — the API refuses a prompt and the session compacts
// reactively and retries the call. It completes; the store keeps the whole transcript.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const definitions_1 = require("../../src/workflows/definitions");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const cli_1 = require("../support/cli");
(0, node_test_1.after)(temporal_1.closeTestEnv);
const FILES = 150;
const WINDOW = 30_000;
const SHRUNK_WINDOW = 14_000;
const SHRINK_AT_TURN = 110;
const COMPACTION_MARK = 'the conversation is about to be compacted';
(0, node_test_1.test)('integration: 150 turns of reads in a 30k window: clearing, auto- and reactive compaction; completes; transcript keeps turn 1', { timeout: 600_000 }, async () => {
    await (0, agent_1.withAgent)({ fake: { contextWindow: WINDOW, textChunkSize: 400, jsonChunkSize: 200 } }, async ({ fake, start, workDir, storeDir, taskQueue, client }) => {
        await (0, promises_1.mkdir)((0, node_path_1.join)(workDir, 'notes'));
        const fileOf = (i) => (0, node_path_1.join)(workDir, 'notes', `note-${String(i).padStart(3, '0')}.txt`);
        for (let i = 1; i <= FILES; i++) {
            const lines = Array.from({ length: 40 }, (_, l) => `note ${i} line ${l}: ${'observations about the module '.repeat(2)}`);
            await (0, promises_1.writeFile)(fileOf(i), `${lines.join('\n')}\n`);
        }
        let turn = 0;
        let summaries = 0;
        fake.script((req) => {
            if ((0, fakeAnthropic_1.lastUserText)(req).includes(COMPACTION_MARK)) {
                summaries++;
                return (0, fakeAnthropic_1.textResponse)(`<analysis>draft</analysis><summary>1. Primary request: read every note in notes/ in order and report.\n8. Current work: read the notes up to note ${turn}.\n9. Next step: read note ${turn + 1}.</summary>`);
            }
            turn++;
            if (turn === SHRINK_AT_TURN)
                fake.setContextWindow(SHRUNK_WINDOW);
            if (turn > FILES)
                return (0, fakeAnthropic_1.textResponse)(`Read all ${FILES} notes.`);
            const thinking = `Note ${turn - 1} described part of the module; I keep a running account of what the notes say before reading note ${turn}. `.repeat(5);
            return (0, fakeAnthropic_1.toolUseResponse)([{ name: 'Read', input: { file_path: fileOf(turn) } }], { text: thinking });
        });
        const t0 = Date.now();
        const handle = await start({
            prompt: 'Read every note in notes/, one per turn, in order, then report.',
            tools: ['Read'],
            maxTurns: FILES + 20,
            contextManagement: { autoCompactWindow: WINDOW },
            // A PreCompact hook (reference format): records its input, adds an instruction for the summary.
            hooks: {
                PreCompact: [
                    {
                        matcher: 'auto',
                        hooks: [
                            {
                                type: 'command',
                                command: `cat >> ${(0, node_path_1.join)(workDir, 'precompact.jsonl')}; echo >> ${(0, node_path_1.join)(workDir, 'precompact.jsonl')}; echo 'Keep the list of notes already read.'`,
                            },
                        ],
                    },
                ],
                // SessionStart with source "compact" after each compacting turn (the reference's matcher); not "startup".
                SessionStart: [
                    {
                        matcher: 'compact',
                        hooks: [
                            {
                                type: 'command',
                                command: `cat >> ${(0, node_path_1.join)(workDir, 'sessionstart.jsonl')}; echo >> ${(0, node_path_1.join)(workDir, 'sessionstart.jsonl')}; echo 'Re-read notes/INDEX after a compaction.'`,
                            },
                        ],
                    },
                ],
            },
        });
        const result = await handle.result();
        const seconds = (Date.now() - t0) / 1000;
        strict_1.default.equal(result.status, 'completed', result.endReason);
        strict_1.default.equal(result.turns, FILES + 1);
        strict_1.default.equal(fake.unexpected.length, 0, JSON.stringify(fake.unexpected.map((u) => u.message)));
        const status = await handle.query(definitions_1.statusQuery);
        const compactions = status.compactions ?? [];
        const auto = compactions.filter((c) => c.trigger === 'auto');
        const reactive = compactions.filter((c) => c.trigger === 'reactive');
        const refused = fake.requests.filter((r) => r.response?.status === 400 &&
            /prompt is too long: \d+ tokens > \d+ maximum/.test(r.response.errorMessage ?? ''));
        console.log(`[context] ${FILES + 1} turns in ${seconds.toFixed(1)} s; ${compactions.length} compactions (${auto.length} auto, ${reactive.length} reactive), ` +
            `${refused.length} request(s) refused as too long; ` +
            compactions
                .map((c) => `#${c.n} ${c.trigger} turn ${c.turn}: ${c.tokensBefore}→${c.tokensAfter}`)
                .join(', '));
        strict_1.default.ok(auto.length >= 1, 'at least one auto-compaction');
        strict_1.default.ok(reactive.length >= 1, 'at least one reactive compaction');
        strict_1.default.ok(refused.length >= reactive.length);
        strict_1.default.equal(summaries, compactions.length, 'one summarizing call per compaction');
        for (const c of compactions)
            strict_1.default.ok(c.tokensAfter < c.tokensBefore, `compaction ${c.n}: ${c.tokensBefore} → ${c.tokensAfter}`);
        // Every request that was answered fit the window in force; the last one is far below 150 notes' worth.
        const answered = fake.requests.filter((r) => r.response?.status === 200);
        const last = answered[answered.length - 1]?.body;
        strict_1.default.ok(JSON.stringify(last.messages).length < SHRUNK_WINDOW * 4, 'the model sees a compacted view');
        // Cleared results say where the full result is, and the first message of the view carries the summary + task.
        const allSent = answered.map((r) => JSON.stringify(r.body.messages)).join('\n');
        strict_1.default.match(allSent, /Old tool result content cleared/);
        strict_1.default.match(allSent, /The original task:\\nRead every note in notes\//);
        strict_1.default.ok((status.usage.cache_read_input_tokens ?? 0) > 0, 'prompt caching read something back');
        // The PreCompact hook ran before each compaction (a reactive one runs it with trigger "auto"), and its stdout reached the summary request.
        const hookInputs = (await (0, promises_1.readFile)((0, node_path_1.join)(workDir, 'precompact.jsonl'), 'utf8'))
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l));
        strict_1.default.equal(hookInputs.length, compactions.length);
        strict_1.default.ok(hookInputs.every((h) => h.hook_event_name === 'PreCompact' && h.trigger === 'auto' && h.session_id === handle.workflowId));
        strict_1.default.match(allSent, /Additional instructions:\\nKeep the list of notes already read\./);
        // SessionStart fired with source "compact" once per turn that compacted (never "startup": the matcher), and its context reached the model.
        const starts = (await (0, promises_1.readFile)((0, node_path_1.join)(workDir, 'sessionstart.jsonl'), 'utf8'))
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l));
        const compactingTurns = new Set(compactions.filter((c) => c.turn < result.turns).map((c) => c.turn)).size;
        strict_1.default.equal(starts.length, compactingTurns);
        strict_1.default.ok(starts.every((h) => h.hook_event_name === 'SessionStart' && h.source === 'compact'));
        strict_1.default.match(allSent, /SessionStart hook additional context: Re-read notes\/INDEX after a compaction\./);
        // The store keeps everything: `transcript` shows turn 1 and marks the compaction boundaries.
        const env = {
            TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
            DURABLE_AGENT_TASK_QUEUE: taskQueue,
            DURABLE_AGENT_STORE_DIR: storeDir,
        };
        const transcript = await (0, cli_1.cli)(['transcript', handle.workflowId], env, 60_000);
        strict_1.default.equal(transcript.code, 0, transcript.stderr);
        strict_1.default.match(transcript.stdout, /^user: Read every note in notes\//m);
        strict_1.default.match(transcript.stdout, new RegExp(`Read \\{"file_path":"${fileOf(1).replace(/[/.]/g, (c) => `\\${c}`)}"\\}`));
        strict_1.default.match(transcript.stdout, /note 1 line 0:/);
        strict_1.default.match(transcript.stdout, /── compaction 1 \(auto/);
        strict_1.default.match(transcript.stdout, /── compaction \d+ \(reactive/);
        strict_1.default.match(transcript.stdout, /Read all 150 notes\./);
        void client;
    });
});
//# sourceMappingURL=context-window.test.js.map