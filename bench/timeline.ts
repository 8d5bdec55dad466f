// Prints the event timeline of one turn (and the session events around it) of a Reads session on
// a fresh dev server: where a turn's time goes, event by event. Diagnostic, not part of the table.
//   node dist/bench/timeline.js [turns=8] [turn=5]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, DefaultLogger } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { startFakeAnthropic } from '../src/testing/fakeAnthropic';
import { startSession } from '../src/temporal/client';
import { startDevServer } from '../src/temporal/service/devServer';
import { bundleAgentWorkflows, createAgentWorker } from '../src/temporal/worker';
import { eventMs } from './floor';
import { ScriptBook, readsScript } from './scenarios';

const ET = temporal.api.enums.v1.EventType;

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const turns = Number(process.argv[2] ?? 8);
  const which = Number(process.argv[3] ?? 5);
  const work = mkdtempSync(join(tmpdir(), 'da-timeline-'));
  const files = [0, 1, 2].map((i) => {
    const f = join(work, `f${i}.txt`);
    writeFileSync(f, 'x'.repeat(2000));
    return f;
  });
  const book = new ScriptBook();
  book.add('t', readsScript(turns, files));
  const fake = await startFakeAnthropic({ script: (r) => book.answer(r) });
  const server = await startDevServer({});
  const connection = await NativeConnection.connect({ address: server.address });
  const worker = await createAgentWorker({
    connection,
    taskQueue: 'tl',
    anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }),
    storeDir: mkdtempSync(join(work, 's-')),
    workflowBundle: await bundleAgentWorkflows(),
  });
  await worker.runUntil(async () => {
    const client = new Client({ connection: await Connection.connect({ address: server.address }) });
    const h = await startSession(client, {
      prompt: 'bench:t',
      cwd: work,
      permissionMode: 'bypassPermissions',
      model: { model: 'b', maxTokens: 100 },
      taskQueue: 'tl',
      useSearchAttributes: false,
      id: 'tl',
    });
    await h.result();
    const turn = (await client.workflow.getHandle(`tl/turn-${which}`).fetchHistory()).events ?? [];
    const session = (await client.workflow.getHandle('tl').fetchHistory()).events ?? [];
    const t0 = eventMs(turn[0]!);
    const name = (e: (typeof turn)[number]): string => {
      const n = ET[Number(e.eventType)]?.replace('EVENT_TYPE_', '') ?? String(e.eventType);
      const a =
        e.activityTaskScheduledEventAttributes?.activityType?.name ?? e.markerRecordedEventAttributes?.markerName ?? '';
      let extra = '';
      const data = e.markerRecordedEventAttributes?.details?.data?.payloads?.[0]?.data;
      if (data) {
        try {
          const d = JSON.parse(Buffer.from(data).toString()) as {
            activity_type?: string;
            complete_time?: { seconds?: number; nanos?: number } | string;
            original_schedule_time?: { seconds?: number; nanos?: number } | string;
          };
          const ms = (t: unknown): number =>
            typeof t === 'string'
              ? Date.parse(t)
              : t && typeof t === 'object'
                ? Number((t as { seconds?: number }).seconds ?? 0) * 1000 +
                  Number((t as { nanos?: number }).nanos ?? 0) / 1e6
                : NaN;
          extra = ` ${d.activity_type ?? ''} scheduled ${(ms(d.original_schedule_time) - t0).toFixed(1)} completed ${(ms(d.complete_time) - t0).toFixed(1)}`;
        } catch {
          extra = '';
        }
      }
      return `${n} ${a}${extra}`;
    };
    // Session events from the start of the previous turn's completion to the next child initiation.
    const initIdx = session.findIndex(
      (e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId === `tl/turn-${which}`,
    );
    const nextIdx = session.findIndex(
      (e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId === `tl/turn-${which + 1}`,
    );
    console.log(`session events around turn ${which} (ms relative to the turn's first event):`);
    for (const e of session.slice(Math.max(0, initIdx - 6), nextIdx + 1))
      console.log(`  ${(eventMs(e) - t0).toFixed(1).padStart(8)}  ${name(e)}`);
    console.log(`turn ${which}:`);
    for (const e of turn) console.log(`  ${(eventMs(e) - t0).toFixed(1).padStart(8)}  ${name(e)}`);
    await client.connection.close();
  });
  await server.stop();
  await fake.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
