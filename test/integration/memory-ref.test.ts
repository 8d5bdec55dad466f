// integration: a large CLAUDE.md travels by reference (invariant 11) and reaches subagents.
// `durable-agent run` stores the memory text in the worker's store; the session, its turns and
// the subagent's session carry `{ ref, sha256, chars }`; the model activity puts the text before the
// first message, as the reference's claudeMd reminder — the parent's and the subagent's (the
// reference gives a subagent the same CLAUDE.md context; checked against Claude Code 2.1.197).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { textResponse, toolUseResponse, type MessagesRequest } from '../../src/testing/fakeAnthropic';
import { MEMORY_INLINE_MAX_CHARS } from '../../src/core/memoryReminder';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';
import { sessionRuns, turnChildIds } from '../support/history';

after(closeTestEnv);

function systemOf(req: MessagesRequest): string {
  const s = req.system as unknown;
  if (typeof s === 'string') return s;
  return Array.isArray(s) ? s.map((b) => (b as { text?: string }).text ?? '').join('\n') : '';
}
/** A history with its payloads decoded (JSON text), to search for a string. */
const historyText = (history: unknown): string =>
  JSON.stringify(history, (k, v: unknown) => {
    if (k === 'data' && typeof v === 'string') return Buffer.from(v, 'base64').toString('utf8');
    if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
    const b = v as { type?: unknown; data?: unknown };
    if (b && b.type === 'Buffer' && Array.isArray(b.data)) return Buffer.from(b.data as number[]).toString('utf8');
    return v;
  });
const firstUserText = (req: MessagesRequest): string => {
  const c = req.messages[0]?.content;
  return typeof c === 'string' ? c : (c ?? []).map((b) => (b as { text?: string }).text ?? '').join('');
};

test(
  'integration: a large CLAUDE.md is sent by reference — in no workflow history — and both the session and its subagent see it',
  { timeout: 120_000 },
  async () => {
    await withAgent({}, async ({ fake, workDir, storeDir, taskQueue, client }) => {
      const home = await mkdtemp(join(tmpdir(), 'da-memref-home-'));
      const body = Array.from({ length: 1500 }, (_, i) => `- rule ${i}: keep the MEMORY-BODY line ${i} in mind`).join(
        '\n',
      );
      const claudeMd = `MEMORY-HEAD project rules\n${body}\nMEMORY-TAIL last rule\n`;
      assert.ok(claudeMd.length > MEMORY_INLINE_MAX_CHARS * 3);
      await writeFile(join(workDir, 'CLAUDE.md'), claudeMd);
      await mkdir(join(workDir, '.claude', 'agents'), { recursive: true });
      await writeFile(
        join(workDir, '.claude', 'agents', 'reviewer.md'),
        '---\nname: reviewer\ndescription: Reviews.\ntools: Read\n---\nYou are MARKER-REVIEWER.\n',
      );
      fake.script((req) => {
        if (systemOf(req).includes('MARKER-REVIEWER')) return textResponse('reviewed');
        if (!req.messages.some((m) => m.role === 'assistant'))
          return toolUseResponse([
            {
              id: 'toolu_review',
              name: 'Agent',
              input: {
                run_in_background: false,
                description: 'review',
                prompt: 'REVIEW-PROMPT',
                subagent_type: 'reviewer',
              },
            },
          ]);
        return textResponse('done');
      });
      const env = {
        TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
        DURABLE_AGENT_TASK_QUEUE: taskQueue,
        DURABLE_AGENT_STORE_DIR: storeDir,
        CLAUDE_CONFIG_DIR: join(home, '.claude'),
        DURABLE_AGENT_HOME: join(home, '.durable-agent'),
        DURABLE_AGENT_MANAGED_SETTINGS: join(home, 'none.json'),
        DURABLE_AGENT_MANAGED_MEMORY: join(home, 'none.md'),
      };
      const run = await cli(
        ['run', '--cwd', workDir, '--permission-mode', 'bypassPermissions', 'PARENT-PROMPT'],
        env,
        90_000,
      );
      assert.equal(run.code, 0, run.stderr);
      const id = /session (\S+) started/.exec(run.stdout)?.[1] as string;
      assert.ok(id, run.stdout);
      const handle = client.workflow.getHandle(id);
      const result = (await handle.result()) as { status: string; endReason?: string };
      assert.equal(result.status, 'completed', result.endReason);

      // The model got the whole memory before the prompt, in the session and in its subagent.
      const parentFirst = fake.messageRequests().find((r) => !systemOf(r).includes('MARKER-REVIEWER'))!;
      const childFirst = fake.messageRequests().find((r) => systemOf(r).includes('MARKER-REVIEWER'))!;
      for (const [who, req, prompt] of [
        ['session', parentFirst, 'PARENT-PROMPT'],
        ['subagent', childFirst, 'REVIEW-PROMPT'],
      ] as const) {
        const text = firstUserText(req);
        assert.match(text, /^<system-reminder>/, who);
        assert.ok(
          text.includes('MEMORY-HEAD') && text.includes('MEMORY-BODY line 1499') && text.includes('MEMORY-TAIL'),
          `${who} sees the whole CLAUDE.md`,
        );
        assert.ok(text.indexOf('MEMORY-TAIL') < text.indexOf(prompt), `${who}: memory before the prompt`);
      }

      // No workflow history holds the text: the session's, its turns', the subagent's.
      // Each session's turn children as its history names them (a child runs several model steps).
      const children = async (wid: string): Promise<string[]> =>
        turnChildIds(await sessionRuns(client, wid, (await client.workflow.getHandle(wid).describe()).runId));
      const agent = `${id}/agent-toolu_review`;
      const ids = [id, ...(await children(id)), agent, ...(await children(agent))];
      assert.ok(ids.includes(`${id}/turn-1`) && ids.includes(`${agent}/turn-1`), ids.join(' '));
      for (const wid of ids) {
        const history = historyText(await client.workflow.getHandle(wid).fetchHistory());
        assert.ok(
          history.includes('REVIEW-PROMPT') || history.includes('PARENT-PROMPT') || history.includes('Model call'),
          `${wid}: the history is decoded`,
        );
        assert.ok(!history.includes('MEMORY-BODY'), `${wid}: the memory text is not in the history`);
      }
      const start = historyText(await client.workflow.getHandle(id).fetchHistory());
      assert.match(start, /memory-[0-9a-f]{64}/);
    });
  },
);
