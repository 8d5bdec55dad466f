// Red team issue 30, round i, end to end: what the CLI prints to the operator's terminal. Text the
// agent controls (a tool's input and so its summary, a tool name, a command's output, the model's
// text) reaches `attach`/`run`, `status`, `approve`, `audit` and `transcript`. A terminal acts on
// escape sequences in it: OSC 52 writes the operator's clipboard, CSI cursor moves and `\r` rewrite
// what an approval line says. The oracle is the bytes each real `durable-agent` process wrote to
// its stdout and stderr, never the tool's words. I-2 was a hole until the CLI's terminal-safe text
// (src/core/terminalText.ts, src/cli/terminalText.ts); it runs as a regression guard.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { sessionStatus } from '../../src/temporal/client';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';
import { waitFor } from '../support/wait';

after(closeTestEnv);

/** OSC 52: set the operator's clipboard to "evil" (base64 ZXZpbA==). */
const OSC52 = '\u001b]52;c;ZXZpbA==\u0007';
/** Up one line, erase it, back to the start: what was printed above is gone. */
const HIDE = '\u001b[1A\u001b[2K\r';
/** The 8-bit CSI (C1): some terminals act on it as on ESC [. */
const C1 = '\u009b2K';

/** Terminal control bytes in printed text: ESC, BEL, CR, the C1 range (newline and tab are fine). */
const controls = (s: string): string[] => [...new Set(s.match(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g) ?? [])];
const shown = (s: string): string => JSON.stringify(s.slice(0, 1200));

test(
  'I-2 attack: escape sequences in a tool input, a tool name, a command output and the model text reach the operator terminal through attach, status, approve, audit and transcript',
  {},
  async () => {
    await withAgent({}, async ({ fake, taskQueue, workDir, storeDir, client }) => {
      const env = {
        TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
        DURABLE_AGENT_TASK_QUEUE: taskQueue,
        DURABLE_AGENT_STORE_DIR: storeDir,
      };
      fake.enqueue(
        // A Write in default mode waits for a person: its summary carries the path.
        toolUseResponse([
          {
            id: 'toolu_i2_write',
            name: 'Write',
            input: { file_path: join(workDir, `notes${OSC52}${HIDE}.txt`), content: 'x\n' },
          },
        ]),
        // A command whose output (its progress tail, its preview) carries the sequences, and a tool
        // name that is not a tool at all.
        toolUseResponse([
          {
            id: 'toolu_i2_bash',
            name: 'Bash',
            input: {
              command: `printf 'out\\033]52;c;ZXZpbA==\\007\\033[2K\\r\\n'; sleep 7; printf 'tail\\033]52;c;ZXZpbA==\\007\\n'`,
            },
          },
          { id: 'toolu_i2_unknown', name: `Evil${HIDE}`, input: {} },
        ]),
        textResponse(`All done.${OSC52}${HIDE}${C1} nothing to see`),
      );
      const started = await cli(
        ['run', '--detach', '--json', '--cwd', workDir, '--model', 'claude-test', 'take', 'notes'],
        env,
      );
      assert.equal(started.code, 0, started.stderr);
      const id = (JSON.parse(started.stdout) as { session: string }).session;
      const attach = cli(['attach', id], env, 180_000);
      const printed: Record<string, string> = {};
      await waitFor('the Write to ask', async () => (await sessionStatus(client, id)).pendingApprovals.length > 0);
      const pending = await cli(['status', id], env);
      printed.statusWhilePending = pending.stdout + pending.stderr;
      // Approve whatever asks until the session ends (the Bash may ask too).
      const approvals: string[] = [];
      let ended = false;
      void attach.then(() => (ended = true));
      while (!ended) {
        const s = await sessionStatus(client, id).catch(() => undefined);
        if (s?.status === 'completed' || s?.phase === 'ended') break;
        for (const a of s?.pendingApprovals ?? []) {
          const r = await cli(['approve', id, a.toolUseId], env);
          approvals.push(r.stdout + r.stderr);
        }
        await new Promise((r) => setTimeout(r, 300));
      }
      const a = await attach;
      printed.attach = a.stdout + a.stderr;
      printed.approve = approvals.join('');
      for (const [name, args] of [
        ['statusAtEnd', ['status', id]],
        ['audit', ['audit', id]],
        ['transcript', ['transcript', id]],
      ] as const) {
        const r = await cli([...args], env);
        printed[name] = r.stdout + r.stderr;
      }
      // Control: the sequences really went through (the approved Write's file name carries them on disk).
      assert.ok(
        readdirSync(workDir).some((n) => n.includes(OSC52)),
        `the Write ran: ${JSON.stringify(readdirSync(workDir))}`,
      );
      const found = Object.fromEntries(Object.entries(printed).map(([k, v]) => [k, controls(v)]));
      const none = Object.fromEntries(Object.keys(printed).map((k) => [k, []]));
      assert.deepEqual(
        found,
        none,
        Object.entries(printed)
          .map(([k, v]) => `${k}: ${shown(v)}`)
          .join('\n'),
      );
    });
  },
);
