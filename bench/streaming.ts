// Benchmark: streaming tool execution. Each turn's message streams over ~2.6 s: three read blocks
// that complete at ~0.3 s, ~0.9 s and ~1.5 s (each read takes 1 s: a slow file system or a
// remote search), then the model keeps writing text for ~1 s. Wall time per turn with and without streaming execution,
// on a Temporal dev server and in-process, in one run. Not a test: machines are noisy.
//   npm run build && node dist/bench/streaming.js [turns=4]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, DefaultLogger } from '@temporalio/worker';
import { z } from 'zod';
import { startFakeAnthropic, textResponse, type MessageSpec, type MessagesRequest } from '../src/testing/fakeAnthropic';
import { runLocalSession } from '../src/inprocess/runSession';
import { startSession } from '../src/temporal/client';
import { startDevServer } from '../src/temporal/service/devServer';
import { bundleAgentWorkflows, createAgentWorker } from '../src/temporal/worker';
import { buildTool } from '../src/toolProtocol/Tool';

const TURNS = Number(process.argv[2] ?? 4);
const TOOL_MS = 1000;

/** A concurrency-safe read that takes TOOL_MS (a slow disk or a network file system). */
const SlowRead = buildTool<{ name: string }, string>({
  name: 'SlowRead',
  inputSchema: z.strictObject({ name: z.string() }),
  prompt: () => 'Reads a named file slowly.',
  summary: (i) => `SlowRead ${i.name}`,
  isConcurrencySafe: () => true,
  isReadOnly: () => true,
  async call(input) {
    await new Promise((r) => setTimeout(r, TOOL_MS));
    return { data: `contents of ${input.name}` };
  },
  mapToolResultToToolResultBlockParam: (data, id) => ({ type: 'tool_result', tool_use_id: id, content: data }),
});

function script(tag: string) {
  return (req: MessagesRequest): MessageSpec => {
    const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
    if (turn > TURNS) return textResponse('done');
    return {
      content: [
        { type: 'text', text: 'Reading three files.', pauseAfterMs: 300 },
        ...[0, 1, 2].map((i) => ({
          type: 'tool_use' as const,
          id: `toolu_${tag}${turn}_${i}`,
          name: 'SlowRead',
          input: { name: `f${i}` },
          pauseAfterMs: i < 2 ? 600 : 1100,
        })),
        { type: 'text', text: 'And while those run, some more thoughts.' },
      ],
    };
  };
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const fake = await startFakeAnthropic();
  const anthropic = () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 });
  const work = mkdtempSync(join(tmpdir(), 'da-bench-stream-'));
  writeFileSync(join(work, 'x'), 'x');
  const common = {
    prompt: 'bench',
    cwd: work,
    tools: ['SlowRead'],
    permissionMode: 'bypassPermissions' as const,
    model: { model: 'bench', maxTokens: 256 },
    maxTurns: TURNS + 1,
  };
  const rows: Array<[string, number, number]> = [];

  for (const on of [true, false]) {
    fake.script(script(on ? 'l' : 'L'));
    const t0 = performance.now();
    await runLocalSession(
      { ...common, streamingToolExecution: on },
      { tools: [SlowRead], anthropic, storeDir: mkdtempSync(join(tmpdir(), 'da-bench-store-')) },
    );
    rows.push(['in-process', on ? 1 : 0, (performance.now() - t0) / TURNS]);
  }

  const server = await startDevServer({});
  const connection = await NativeConnection.connect({ address: server.address });
  const worker = await createAgentWorker({
    connection,
    taskQueue: 'bench-stream',
    tools: [SlowRead],
    anthropic,
    storeDir: mkdtempSync(join(tmpdir(), 'da-bench-store-')),
    workflowBundle: await bundleAgentWorkflows(),
  });
  await worker.runUntil(async () => {
    const c = await Connection.connect({ address: server.address });
    const client = new Client({ connection: c });
    for (const on of [true, false]) {
      fake.script(script(on ? 't' : 'T'));
      const t1 = performance.now();
      const r = await (
        await startSession(client, {
          ...common,
          streamingToolExecution: on,
          taskQueue: 'bench-stream',
          useSearchAttributes: false,
        })
      ).result();
      if (r.status !== 'completed') throw new Error(`temporal session ${r.status}: ${r.endReason}`);
      rows.push(['temporal', on ? 1 : 0, (performance.now() - t1) / TURNS]);
    }
    await c.close();
  });
  await server.stop();
  await fake.close();
  console.log(
    `${TURNS} tool turns (+1 closing text turn, counted in the average); each message streams ~2.6 s, its 3 SlowReads of ${TOOL_MS} ms complete at ~0.3/0.9/1.5 s`,
  );
  for (const where of ['in-process', 'temporal']) {
    const on = rows.find((r) => r[0] === where && r[1] === 1)?.[2] ?? NaN;
    const off = rows.find((r) => r[0] === where && r[1] === 0)?.[2] ?? NaN;
    console.log(
      `${where.padEnd(10)}  streaming on ${on.toFixed(0)} ms/turn, off ${off.toFixed(0)} ms/turn: ${(100 * (1 - on / off)).toFixed(0)} % less`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
