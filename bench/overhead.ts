// Benchmark: what durability costs. The same turn algorithm runs a session of N turns (three
// Reads per turn, the real SDK against the local fake Messages API) in-process and on a Temporal
// dev server, in one run; prints per-turn times and the ratio. Not a test: machines are noisy.
//   npm run build && node dist/bench/overhead.js [turns=30]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, DefaultLogger } from '@temporalio/worker';
import { startFakeAnthropic, textResponse, toolUseResponse, type MessagesRequest } from '../src/testing/fakeAnthropic';
import { runLocalSession } from '../src/local/runSession';
import { startSession } from '../src/client';
import { startDevServer } from '../src/temporal/devServer';
import { bundleAgentWorkflows, createAgentWorker } from '../src/worker';

const TURNS = Number(process.argv[2] ?? 30);

function script(work: string) {
  return (req: MessagesRequest) => {
    const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
    if (turn > TURNS) return textResponse('done');
    return toolUseResponse([0, 1, 2].map((i) => ({ id: `toolu_b${turn}_${i}`, name: 'Read', input: { file_path: join(work, `f${i}.txt`) } })));
  };
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const work = mkdtempSync(join(tmpdir(), 'da-bench-'));
  for (let i = 0; i < 3; i++) writeFileSync(join(work, `f${i}.txt`), 'x'.repeat(2000) + '\n');
  const fake = await startFakeAnthropic();
  fake.script(script(work));
  const anthropic = () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 });
  const common = { prompt: 'bench', cwd: work, permissionMode: 'bypassPermissions' as const, model: { model: 'bench', maxTokens: 256 }, maxTurns: TURNS + 1 };

  const t0 = performance.now();
  const local = await runLocalSession(common, { anthropic, storeDir: mkdtempSync(join(tmpdir(), 'da-bench-store-')) });
  const localMs = performance.now() - t0;

  const server = await startDevServer({});
  const connection = await NativeConnection.connect({ address: server.address });
  const worker = await createAgentWorker({ connection, taskQueue: 'bench', anthropic, storeDir: mkdtempSync(join(tmpdir(), 'da-bench-store-')), workflowBundle: await bundleAgentWorkflows() });
  let temporalMs = 0;
  let status = '';
  await worker.runUntil(async () => {
    const c = await Connection.connect({ address: server.address });
    const client = new Client({ connection: c });
    const t1 = performance.now();
    const r = await (await startSession(client, { ...common, taskQueue: 'bench', useSearchAttributes: false })).result();
    temporalMs = performance.now() - t1;
    status = r.status;
    await c.close();
  });
  await server.stop();
  await fake.close();
  const turns = TURNS + 1;
  console.log(`turns: ${turns} (3 Reads each but the last); statuses: in-process ${local.status}, temporal ${status}`);
  console.log(`in-process: ${localMs.toFixed(0)} ms total, ${(localMs / turns).toFixed(1)} ms/turn`);
  console.log(`temporal:   ${temporalMs.toFixed(0)} ms total, ${(temporalMs / turns).toFixed(1)} ms/turn`);
  console.log(`overhead:   ${(temporalMs / localMs).toFixed(1)}x, +${((temporalMs - localMs) / turns).toFixed(1)} ms/turn for durability`);
  console.log(`rss: ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MiB`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
