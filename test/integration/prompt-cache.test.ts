// integration: prompt caching. The session marks cache breakpoints (tools, system prompt, the
// conversation's last messages); the fake API simulates the prompt cache (prefix match at or up
// to 20 blocks before a breakpoint, 5-minute entries, ≥ 1024 tokens) and reports usage as the API
// does. Over a 25-turn session, after turn 3, ≥ 80 % of the input tokens are read from the cache;
// `status` and the audit sum the cache fields. (50 turns proved the same at twice the CPU: issue 32.)
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { textResponse, toolUseResponse, type MessagesRequest } from '../../src/testing/fakeAnthropic';
import { statusQuery } from '../../src/temporal/workflows/definitions';
import { buildAudit } from '../../src/audit';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';

after(closeTestEnv);

const TURNS = 25;

test(
  'integration: prompt caching — on a 25-turn session ≥ 80 % of input tokens are cache reads after turn 3; status and audit sum them',
  { timeout: 300_000 },
  async () => {
    await withAgent({ fake: { textChunkSize: 400, jsonChunkSize: 200 } }, async ({ fake, start, workDir, client }) => {
      await mkdir(join(workDir, 'src'));
      for (let i = 1; i < TURNS; i++) {
        await writeFile(
          join(workDir, 'src', `mod${i}.ts`),
          Array.from({ length: 30 }, (_, l) => `export const value${i}_${l} = ${l}; // module ${i}`).join('\n'),
        );
      }
      fake.script((req: MessagesRequest) => {
        const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
        if (turn >= TURNS) return textResponse('Read every module.');
        return toolUseResponse([{ name: 'Read', input: { file_path: join(workDir, 'src', `mod${turn}.ts`) } }], {
          text: `Reading module ${turn}.`,
        });
      });
      const handle = await start({
        prompt: 'Read every module in src/ and summarise them.',
        tools: ['Read', 'Grep', 'Glob'],
        maxTurns: TURNS + 5,
      });
      const result = await handle.result();
      assert.equal(result.status, 'completed', result.endReason);
      assert.equal(result.turns, TURNS);
      fake.assertDone();

      // What was sent: breakpoints on the last tool, the system prompt and the last message(s), never more than 4.
      const requests = fake.messageRequests();
      for (const r of requests) {
        const marks = JSON.stringify(r).match(/"cache_control"/g)?.length ?? 0;
        assert.ok(marks >= 3 && marks <= 4, `${marks} breakpoints`);
        assert.ok(Array.isArray(r.system) && JSON.stringify(r.system).includes('cache_control'));
        assert.ok(JSON.stringify(r.tools?.[r.tools.length - 1]).includes('cache_control'));
      }
      const usages = fake.requests.filter((r) => r.response?.message).map((r) => r.response!.message!.usage);
      assert.equal(usages.length, TURNS);
      const after3 = usages.slice(3);
      const read = after3.reduce((n, u) => n + (u.cache_read_input_tokens ?? 0), 0);
      const created = after3.reduce((n, u) => n + (u.cache_creation_input_tokens ?? 0), 0);
      const uncached = after3.reduce((n, u) => n + u.input_tokens, 0);
      const share = read / (read + created + uncached);
      console.log(
        `[cache] turns 4–${TURNS}: ${read} tokens read from cache, ${created} written, ${uncached} uncached: ${(share * 100).toFixed(1)} % of input tokens read from cache`,
      );
      assert.ok(share >= 0.8, `only ${(share * 100).toFixed(1)} % read from cache`);

      // status sums every call's usage with the cache fields; the audit lists them per model call.
      const status = await handle.query(statusQuery);
      const sum = (k: 'input_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens') =>
        usages.reduce((n, u) => n + (u[k] ?? 0), 0);
      assert.equal(status.usage.cache_read_input_tokens, sum('cache_read_input_tokens'));
      assert.equal(status.usage.cache_creation_input_tokens, sum('cache_creation_input_tokens'));
      assert.equal(status.usage.input_tokens, sum('input_tokens'));
      const audit = await buildAudit(client, handle.workflowId);
      assert.equal(audit.session.usage.cache_read_input_tokens, sum('cache_read_input_tokens'));
    });
  },
);
