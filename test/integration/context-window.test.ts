// integration: a session outlives its model's context window, the reference's way. The fake API
// enforces a 30k-token window (HTTP 400 "prompt is too long: N tokens > 30000 maximum", as the API
// answers); the session reads 60 files of 80 lines, one per turn (150 files of 40 lines made the
// same compactions at 2.5 times the turns: issue 32). Old tool results are cleared, the session
// auto-compacts before the threshold (compact-<n> activities), and — once the endpoint's window
// shrinks below what the session was told — the API refuses a prompt and the session compacts
// reactively and retries the call. It completes; the store keeps the whole transcript.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lastUserText, textResponse, toolUseResponse, type MessagesRequest } from '../../src/testing/fakeAnthropic';
import { statusQuery } from '../../src/temporal/workflows/definitions';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';

after(closeTestEnv);

const FILES = 60;
const LINES = 80;
const WINDOW = 30_000;
const SHRUNK_WINDOW = 14_000;
const SHRINK_AT_TURN = 44;
const COMPACTION_MARK = 'the conversation is about to be compacted';

test(
  'integration: 60 turns of reads in a 30k window: clearing, auto- and reactive compaction; completes; transcript keeps turn 1',
  { timeout: 600_000 },
  async () => {
    await withAgent(
      { fake: { contextWindow: WINDOW, textChunkSize: 400, jsonChunkSize: 200 } },
      async ({ fake, start, workDir, storeDir, taskQueue, client }) => {
        await mkdir(join(workDir, 'notes'));
        const fileOf = (i: number): string => join(workDir, 'notes', `note-${String(i).padStart(3, '0')}.txt`);
        for (let i = 1; i <= FILES; i++) {
          const lines = Array.from(
            { length: LINES },
            (_, l) => `note ${i} line ${l}: ${'observations about the module '.repeat(2)}`,
          );
          await writeFile(fileOf(i), `${lines.join('\n')}\n`);
        }
        let turn = 0;
        let summaries = 0;
        fake.script((req: MessagesRequest) => {
          if (lastUserText(req).includes(COMPACTION_MARK)) {
            summaries++;
            return textResponse(
              `<analysis>draft</analysis><summary>1. Primary request: read every note in notes/ in order and report.\n8. Current work: read the notes up to note ${turn}.\n9. Next step: read note ${turn + 1}.</summary>`,
            );
          }
          turn++;
          if (turn === SHRINK_AT_TURN) fake.setContextWindow(SHRUNK_WINDOW);
          if (turn > FILES) return textResponse(`Read all ${FILES} notes.`);
          const thinking =
            `Note ${turn - 1} described part of the module; I keep a running account of what the notes say before reading note ${turn}. `.repeat(
              5,
            );
          return toolUseResponse([{ name: 'Read', input: { file_path: fileOf(turn) } }], { text: thinking });
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
                    command: `cat >> ${join(workDir, 'precompact.jsonl')}; echo >> ${join(workDir, 'precompact.jsonl')}; echo 'Keep the list of notes already read.'`,
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
                    command: `cat >> ${join(workDir, 'sessionstart.jsonl')}; echo >> ${join(workDir, 'sessionstart.jsonl')}; echo 'Re-read notes/INDEX after a compaction.'`,
                  },
                ],
              },
            ],
          },
        });
        const result = await handle.result();
        const seconds = (Date.now() - t0) / 1000;
        assert.equal(result.status, 'completed', result.endReason);
        assert.equal(result.turns, FILES + 1);
        assert.equal(fake.unexpected.length, 0, JSON.stringify(fake.unexpected.map((u) => u.message)));

        const status = await handle.query(statusQuery);
        const compactions = status.compactions ?? [];
        const auto = compactions.filter((c) => c.trigger === 'auto');
        const reactive = compactions.filter((c) => c.trigger === 'reactive');
        const refused = fake.requests.filter(
          (r) =>
            r.response?.status === 400 &&
            /prompt is too long: \d+ tokens > \d+ maximum/.test(r.response.errorMessage ?? ''),
        );
        console.log(
          `[context] ${FILES + 1} turns in ${seconds.toFixed(1)} s; ${compactions.length} compactions (${auto.length} auto, ${reactive.length} reactive), ` +
            `${refused.length} request(s) refused as too long; ` +
            compactions
              .map((c) => `#${c.n} ${c.trigger} turn ${c.turn}: ${c.tokensBefore}→${c.tokensAfter}`)
              .join(', '),
        );
        assert.ok(auto.length >= 1, 'at least one auto-compaction');
        assert.ok(reactive.length >= 1, 'at least one reactive compaction');
        assert.ok(refused.length >= reactive.length);
        assert.equal(summaries, compactions.length, 'one summarizing call per compaction');
        for (const c of compactions)
          assert.ok(c.tokensAfter < c.tokensBefore, `compaction ${c.n}: ${c.tokensBefore} → ${c.tokensAfter}`);
        // Every request that was answered fit the window in force; the last one is far below all the notes' worth.
        const answered = fake.requests.filter((r) => r.response?.status === 200);
        const last = answered[answered.length - 1]?.body as MessagesRequest;
        assert.ok(JSON.stringify(last.messages).length < SHRUNK_WINDOW * 4, 'the model sees a compacted view');
        // Cleared results say where the full result is, and the first message of the view carries the summary + task.
        const allSent = answered.map((r) => JSON.stringify((r.body as MessagesRequest).messages)).join('\n');
        assert.match(allSent, /Old tool result content cleared/);
        assert.match(allSent, /The original task:\\nRead every note in notes\//);
        assert.ok((status.usage.cache_read_input_tokens ?? 0) > 0, 'prompt caching read something back');
        // The PreCompact hook ran before each compaction (a reactive one runs it with trigger "auto"), and its stdout reached the summary request.
        const hookInputs = (await readFile(join(workDir, 'precompact.jsonl'), 'utf8'))
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { hook_event_name: string; trigger: string; session_id: string });
        assert.equal(hookInputs.length, compactions.length);
        assert.ok(
          hookInputs.every(
            (h) => h.hook_event_name === 'PreCompact' && h.trigger === 'auto' && h.session_id === handle.workflowId,
          ),
        );
        assert.match(allSent, /Additional instructions:\\nKeep the list of notes already read\./);
        // SessionStart fired with source "compact" once per turn that compacted (never "startup": the matcher), and its context reached the model.
        const starts = (await readFile(join(workDir, 'sessionstart.jsonl'), 'utf8'))
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { hook_event_name: string; source: string });
        const compactingTurns = new Set(compactions.filter((c) => c.turn < result.turns).map((c) => c.turn)).size;
        assert.equal(starts.length, compactingTurns);
        assert.ok(starts.every((h) => h.hook_event_name === 'SessionStart' && h.source === 'compact'));
        assert.match(allSent, /SessionStart hook additional context: Re-read notes\/INDEX after a compaction\./);

        // The store keeps everything: `transcript` shows turn 1 and marks the compaction boundaries.
        const env = {
          TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
          DURABLE_AGENT_TASK_QUEUE: taskQueue,
          DURABLE_AGENT_STORE_DIR: storeDir,
        };
        const transcript = await cli(['transcript', handle.workflowId], env, 60_000);
        assert.equal(transcript.code, 0, transcript.stderr);
        assert.match(transcript.stdout, /^user: Read every note in notes\//m);
        assert.match(
          transcript.stdout,
          new RegExp(`Read \\{"file_path":"${fileOf(1).replace(/[/.]/g, (c) => `\\${c}`)}"\\}`),
        );
        assert.match(transcript.stdout, /note 1 line 0:/);
        assert.match(transcript.stdout, /── compaction 1 \(auto/);
        assert.match(transcript.stdout, /── compaction \d+ \(reactive/);
        assert.match(transcript.stdout, new RegExp(`Read all ${FILES} notes\\.`));
        void client;
      },
    );
  },
);
