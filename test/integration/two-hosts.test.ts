// integration: workers on two "hosts" — two workers with their own stores on disk, on one task queue
// (on PostgreSQL: the same store-dir path, as docs/deployment.md asks, whose files A leaves behind are
// removed when A is gone; on local stores: different roots, no directory in common). Turn 1 and 2 run on host A; then host B starts, A drains and stops,
// and the rest runs on B, which must find everything A stored: the model's messages (tool inputs
// by reference), tool results by reference, the read-file state (Edit needs A's Read), the ledger.
//  - Both on the shared PostgreSQL store: the session completes; the history's activity-task
//    worker identity per tool call shows the calls ran on both hosts.
//  - Each on its own LOCAL file store (what you get without DURABLE_AGENT_STORE): B cannot read
//    what A stored; the session stops and waits, and its status says why and how to fix it
//    (MissingBlobError) — no tool runs on wrong state, nothing is silently answered.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { NativeConnection, type Worker } from '@temporalio/worker';
import type { Client, WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { z } from 'zod';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { sessionStatus } from '../../src/temporal/client';
import { createAgentWorker, sessionDirName, workflowsPath } from '../../src/temporal/worker';
import { PostgresBlobStore } from '../../src/stores/postgresBlobStore';
import type { BlobStore } from '../../src/stores/messageStore';
import { buildTool } from '../../src/toolProtocol/Tool';
import { closeTestEnv, getWorkflowBundle, uniqueWorkflowId } from '../support/temporal';
import { fakeAnthropicFactory, withAgent, type AgentTestContext } from '../support/agent';
import { waitFor } from '../support/wait';
import { requirePostgres, startPostgres, type PostgresServer } from '../support/postgres';
import { sessionRuns, toolCallIdentities, turnChildIds } from '../support/history';

const pg = requirePostgres();
let server: PostgresServer | undefined;
const stores: PostgresBlobStore[] = [];
after(async () => {
  await closeTestEnv();
  await Promise.all(stores.map((s) => s.close().catch(() => undefined)));
  await server?.stop();
});

/** A concurrency-safe tool that marks that it started, and (wait: true) holds until `<dir>/go` exists. */
const GateTool = buildTool<{ dir: string; name: string; wait?: boolean; lines?: number }, string>({
  name: 'Gate',
  inputSchema: z.strictObject({
    dir: z.string(),
    name: z.string(),
    wait: z.boolean().optional(),
    lines: z.number().int().optional(),
  }),
  prompt: () => 'Test tool: marks that it started; optionally waits for a go file; optionally answers with many lines.',
  isConcurrencySafe: () => true,
  isReadOnly: () => true,
  // Above this the whole output is saved as a file the model can Read (invariant 7).
  maxResultSizeChars: 2000,
  async call(input, ctx) {
    await writeFile(join(input.dir, `started-${input.name}`), '');
    while (input.wait) {
      if (ctx.abortSignal.aborted) throw new Error('aborted');
      try {
        await access(join(input.dir, 'go'));
        break;
      } catch {
        await sleep(50);
      }
    }
    const more = Array.from({ length: input.lines ?? 0 }, (_, i) => `gate ${input.name} line ${i + 1}`).join('\n');
    return { data: `gate ${input.name} passed${more ? `\n${more}` : ''}` };
  },
  mapToolResultToToolResultBlockParam: (data, id) => ({ type: 'tool_result', tool_use_id: id, content: data }),
});

async function startHost(
  ctx: AgentTestContext,
  identity: string,
  storeDir: string,
  blobStore?: BlobStore,
): Promise<{ worker: Worker; running: Promise<void> }> {
  // Its own connection, as on its own host (one process may not register two workers on one connection).
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_TEST_ADDRESS ?? ctx.env.address });
  const worker = await createAgentWorker({
    connection,
    namespace: ctx.env.namespace ?? 'default',
    taskQueue: ctx.taskQueue,
    storeDir,
    ...(blobStore ? { blobStore } : {}),
    tools: [GateTool],
    anthropic: fakeAnthropicFactory(ctx.fake),
    workflowBundle: await getWorkflowBundle(workflowsPath),
    // A drains its running tool call when it stops (the call completes on A, not on B).
    workerOptions: { identity, stickyQueueScheduleToStartTimeout: '1s', shutdownGraceTime: '60s' },
  });
  return { worker, running: worker.run().finally(() => connection.close()) };
}

/**
 * The scripted session: Read (A), a held Gate (A; with `savedOn`, its large output is saved as a
 * file under A's store root) — switch to B — two Gates, a Read of A's saved output (when given)
 * and an Edit of what A read (B), then text.
 */
function script(ctx: AgentTestContext, notes: string, saved?: string): void {
  const dir = ctx.workDir;
  ctx.fake.enqueue(
    toolUseResponse([{ id: 'toolu_read_a', name: 'Read', input: { file_path: notes } }]),
    toolUseResponse([
      { id: 'toolu_hold_a', name: 'Gate', input: { dir, name: 'hold', wait: true, ...(saved ? { lines: 500 } : {}) } },
    ]),
    toolUseResponse([
      { id: 'toolu_gate_b1', name: 'Gate', input: { dir, name: 'b1' } },
      { id: 'toolu_gate_b2', name: 'Gate', input: { dir, name: 'b2' } },
      ...(saved ? [{ id: 'toolu_read_saved_b', name: 'Read', input: { file_path: saved } }] : []),
      {
        id: 'toolu_edit_b',
        name: 'Edit',
        input: {
          file_path: notes,
          old_string: 'written on no host yet',
          new_string: 'edited on host B after a read on host A',
        },
      },
    ]),
    textResponse('Done on two hosts.'),
  );
}

/** Runs turns 1-2 on A, then starts B and stops A (A drains the held call); returns B. */
async function switchHosts(
  ctx: AgentTestContext,
  a: { worker: Worker; running: Promise<void> },
  startB: () => Promise<{ worker: Worker; running: Promise<void> }>,
) {
  await waitFor(
    'the held call to start on host A',
    async () =>
      access(join(ctx.workDir, 'started-hold')).then(
        () => true,
        () => false,
      ),
    60_000,
  );
  const b = await startB();
  a.worker.shutdown();
  await writeFile(join(ctx.workDir, 'go'), '');
  await a.running;
  return b;
}

async function allToolResults(ctx: AgentTestContext): Promise<Array<{ id: string; isError: boolean; text: string }>> {
  const last = ctx.fake.messageRequests().at(-1);
  const out: Array<{ id: string; isError: boolean; text: string }> = [];
  for (const m of last?.messages ?? []) {
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    for (const b of m.content as Array<{ type: string; tool_use_id?: string; is_error?: boolean; content?: unknown }>) {
      if (b.type === 'tool_result')
        out.push({ id: b.tool_use_id as string, isError: b.is_error === true, text: JSON.stringify(b.content) });
    }
  }
  return out;
}

/** Tool call → worker identity over every turn child the session started (a child runs several steps). */
async function identitiesOf(
  client: Client,
  handle: WorkflowHandleWithFirstExecutionRunId,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const runs = await sessionRuns(client, handle.workflowId, handle.firstExecutionRunId);
  for (const id of turnChildIds(runs)) Object.assign(out, await toolCallIdentities(client, id));
  return out;
}

test(
  'integration: two hosts on the shared PostgreSQL store (each its own disk) complete a session whose tool calls ran on both',
  { skip: pg.skip, timeout: 180_000 },
  async () => {
    pg.assert();
    server = await startPostgres();
    const table = `two_hosts_${process.pid}`;
    await withAgent({ noWorker: true }, async (ctx) => {
      // Every worker has the same store-dir path (docs/deployment.md): the path the model is given is
      // the worker's own path of the result on every host, the only path a result is recreated at.
      const rootA = await mkdtemp(join(tmpdir(), 'da-host-a-'));
      const rootB = rootA;
      const notes = join(ctx.workDir, 'notes.txt');
      await writeFile(notes, 'written on no host yet\n');
      const sessionId = uniqueWorkflowId('two-hosts');
      // Where A saves the held call's large output — the path the model is told to Read.
      const saved = join(rootA, 'results', sessionDirName(sessionId), 'toolu_hold_a.txt');
      script(ctx, notes, saved);
      const shared = (): PostgresBlobStore => {
        const s = new PostgresBlobStore({ connectionString: server!.url, table });
        stores.push(s);
        return s;
      };
      const a = await startHost(ctx, 'host-a', rootA, shared());
      let b: { worker: Worker; running: Promise<void> } | undefined;
      try {
        const handle = await ctx.start({
          id: sessionId,
          prompt: 'edit the notes on two hosts',
          tools: ['Read', 'Edit', 'Gate'],
        });
        b = await switchHosts(ctx, a, () => startHost(ctx, 'host-b', rootB, shared()));
        // Host A is gone, and its disk with it: B has only the shared store.
        assert.match(
          await readFile(saved, 'utf8'),
          /^gate hold passed\ngate hold line 1\n/,
          'A saved the large output under its own root',
        );
        // A's disk is gone: what it saved under the store dir is not on B's.
        await rm(join(rootA, 'results'), { recursive: true, force: true });
        const result = await handle.result();
        assert.equal(result.status, 'completed', JSON.stringify(result));
        assert.equal(result.lastText, 'Done on two hosts.');

        // Every call answered without error — B's Edit found A's Read in the shared read-file state.
        const results = await allToolResults(ctx);
        assert.deepEqual(results.map((r) => r.id).sort(), [
          'toolu_edit_b',
          'toolu_gate_b1',
          'toolu_gate_b2',
          'toolu_hold_a',
          'toolu_read_a',
          'toolu_read_saved_b',
        ]);
        for (const r of results) assert.equal(r.isError, false, `${r.id}: ${r.text}`);
        // The held call's result reached the model as a preview naming the saved file…
        assert.match(
          results.find((r) => r.id === 'toolu_hold_a')?.text ?? '',
          new RegExp(saved.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
        );
        // …and B's Read of that file found the whole output: recreated from the shared store.
        const readSaved = results.find((r) => r.id === 'toolu_read_saved_b')?.text ?? '';
        assert.match(readSaved, /gate hold line 1\b/);
        assert.match(readSaved, /gate hold line 500\b/);
        assert.equal(await readFile(notes, 'utf8'), 'edited on host B after a read on host A\n');
        assert.match(await readFile(saved, 'utf8'), /gate hold line 500\n?$/, 'B recreated it at its own path of it');

        // The proof from history: the worker identity that ran each tool call's activity task.
        const who = await identitiesOf(ctx.client, handle as WorkflowHandleWithFirstExecutionRunId);
        console.log(`[two-hosts] tool call → worker: ${JSON.stringify(who)}`);
        assert.equal(who.toolu_read_a, 'host-a');
        assert.equal(who.toolu_hold_a, 'host-a');
        assert.equal(who.toolu_gate_b1, 'host-b');
        assert.equal(who.toolu_gate_b2, 'host-b');
        assert.equal(who.toolu_edit_b, 'host-b');
        assert.equal(who.toolu_read_saved_b, 'host-b');

        // Nothing of the session's state went to either host's disk.
        await assert.rejects(access(join(rootB, 'blobs')), `no blobs under ${rootB}`);
      } finally {
        if (b) {
          b.worker.shutdown();
          await b.running;
        }
        if (a.worker.getState() === 'RUNNING') a.worker.shutdown();
        await a.running.catch(() => undefined);
      }
    });
  },
);

test(
  'integration: two hosts on their own LOCAL file stores — B cannot read what A stored: the session waits and says why (no tool runs on missing state)',
  { timeout: 180_000 },
  async () => {
    await withAgent({ noWorker: true }, async (ctx) => {
      const rootA = await mkdtemp(join(tmpdir(), 'da-host-a-'));
      const rootB = await mkdtemp(join(tmpdir(), 'da-host-b-'));
      const notes = join(ctx.workDir, 'notes.txt');
      await writeFile(notes, 'written on no host yet\n');
      script(ctx, notes);
      const a = await startHost(ctx, 'host-a', rootA);
      let b: { worker: Worker; running: Promise<void> } | undefined;
      const handle = await ctx.start({ prompt: 'edit the notes on two hosts', tools: ['Read', 'Edit', 'Gate'] });
      try {
        b = await switchHosts(ctx, a, () => startHost(ctx, 'host-b', rootB));
        // B misses what A stored (the held call's result, the model's message): the turn waits out a
        // "store outage" whose message names the missing blob, B's local store and the fix.
        const outage = await waitFor(
          'the session to report the missing blob',
          async () => {
            const s = await sessionStatus(ctx.client, handle.workflowId);
            return s.outage && /is missing from the store/.test(s.outage.lastError) ? s.outage : undefined;
          },
          90_000,
        );
        console.log(`[two-hosts] local stores: ${outage.what} outage: ${outage.lastError.slice(0, 400)}`);
        assert.match(
          outage.lastError,
          new RegExp(`files under ${rootB.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/blobs, this host only`),
        );
        assert.match(
          outage.lastError,
          /workers on more than one host need one shared store \(DURABLE_AGENT_STORE=postgres:/,
        );
        // Nothing ran on B on the strength of state it does not have: the Edit never happened.
        await assert.rejects(access(join(ctx.workDir, 'started-b1')));
        assert.equal(await readFile(notes, 'utf8'), 'written on no host yet\n');
        assert.ok(ctx.fake.messageRequests().length <= 2, 'no model call after the switch');
      } finally {
        await handle.terminate('test over').catch(() => undefined);
        if (b) {
          b.worker.shutdown();
          await b.running;
        }
        if (a.worker.getState() === 'RUNNING') a.worker.shutdown();
        await a.running.catch(() => undefined);
      }
    });
  },
);
