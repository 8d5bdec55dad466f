// test:cluster, two hosts: one worker per host, each with its own working directory and its own
// store directory, both on the cluster's PostgreSQL shared store, each polling its own task queue
// (docs/deployment.md "one task queue per host", split queues). A session started on host A's
// queue whose tools go to host B's queue (`toolTaskQueue`) works in B's directory: its model calls
// run on A, its tool calls on B — read from the history (task queue and worker identity of every
// activity), and its files are where B's tools put them. And the same the other way round.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { startSession } from '../../src/temporal/client';
import type { SessionResult } from '../../src/temporal/workflows/definitions';
import type { ResponseSpec } from '../support/fakeAnthropic';
import { SESSION_MARK, toolUseId } from '../faults/plan';
import { within } from '../faults/sessions';
import { WorkerPool } from './workers';

export interface HostsContext {
  client: Client;
  root: string;
  /** Worker env shared by both hosts (address, store URL, fake model URL, bundle, tag). */
  workerEnv: NodeJS.ProcessEnv;
  handlers: Map<string, (turn: number, stream: boolean) => ResponseSpec | undefined>;
  log: (line: string) => void;
}

export interface HostsResult {
  sessions: number;
  violations: string[];
  notes: string[];
}

interface ActivityRun {
  type: string;
  taskQueue: string;
  identity: string;
}

/** Every started activity of a workflow run: its type, the queue it was scheduled on, the worker that ran it. */
async function activityRuns(client: Client, workflowId: string): Promise<ActivityRun[]> {
  const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const scheduled = new Map<number, { type: string; taskQueue: string }>();
  const out: ActivityRun[] = [];
  for (const e of events) {
    const s = e.activityTaskScheduledEventAttributes;
    if (s) scheduled.set(Number(e.eventId), { type: s.activityType?.name ?? '', taskQueue: s.taskQueue?.name ?? '' });
    const st = e.activityTaskStartedEventAttributes;
    if (st) {
      const of = scheduled.get(Number(st.scheduledEventId));
      if (of) out.push({ ...of, identity: st.identity ?? '' });
    }
  }
  return out;
}

export async function runTwoHosts(ctx: HostsContext): Promise<HostsResult> {
  const violations: string[] = [];
  const notes: string[] = [];
  const host = async (name: 'host-a' | 'host-b') => {
    const queue = `${name}-${randomUUID().slice(0, 8)}`;
    const storeDir = join(ctx.root, name, 'store');
    const workDir = join(ctx.root, name, 'work');
    await mkdir(storeDir, { recursive: true });
    await mkdir(workDir, { recursive: true });
    // Only this host has this file: a Read that finds it ran here.
    await writeFile(join(workDir, 'only-here.txt'), `this file is on ${name}\n`);
    const pool = new WorkerPool({
      env: { ...ctx.workerEnv, TASK_QUEUE: queue, STORE_DIR: storeDir, WORKER_IDENTITY: name },
      prefix: name,
    });
    await pool.add();
    return { name, queue, storeDir, workDir, pool };
  };
  const a = await host('host-a');
  const b = await host('host-b');
  try {
    const cases = [
      { name: 'a2b', home: a, tools: b },
      { name: 'b2a', home: b, tools: a },
    ];
    const started = await Promise.all(
      cases.map(async (c) => {
        const dir = c.tools.workDir;
        const id = (turn: number, k: number): string => toolUseId(`hosts${c.name}`, turn, k);
        ctx.handlers.set(`hosts${c.name}`, (turn) => {
          if (turn === 0) {
            return {
              content: [
                { type: 'text', text: 'Reading the host file and recording a call.' },
                { type: 'tool_use', id: id(0, 0), name: 'Read', input: { file_path: join(dir, 'only-here.txt') } },
                {
                  type: 'tool_use',
                  id: id(0, 1),
                  name: 'Bash',
                  input: {
                    command: `echo ${id(0, 1)} >> ${join(dir, `bash-${c.name}.log`)}`,
                    description: 'Record the call',
                  },
                },
              ],
            };
          }
          if (turn === 1)
            return {
              content: [
                {
                  type: 'tool_use',
                  id: id(1, 0),
                  name: 'Write',
                  input: { file_path: join(dir, `written-${c.name}.txt`), content: `written by ${c.name}\n` },
                },
              ],
            };
          return { content: [{ type: 'text', text: `Session ${c.name} is done.` }] };
        });
        const sessionId = `cluster-hosts-${c.name}-${Date.now().toString(36)}`;
        const handle = await startSession(ctx.client, {
          id: sessionId,
          taskQueue: c.home.queue,
          toolTaskQueue: c.tools.queue,
          cwd: dir,
          prompt: `[${SESSION_MARK} hosts${c.name}] Work in the other host's directory.`,
          tools: ['Read', 'Bash', 'Write'],
          permissionMode: 'acceptEdits',
          rules: { allow: ['Bash'], ask: [], deny: [] },
          model: { model: 'claude-test', maxTokens: 1024 },
          maxTurns: 10,
        });
        return { c, handle, sessionId };
      }),
    );
    for (const { c, handle, sessionId } of started) {
      const result = await within(handle.result() as Promise<SessionResult>, 180_000, undefined);
      if (!result || result.status !== 'completed') {
        violations.push(
          `[hosts] ${c.name} did not complete: ${result ? `${result.status}: ${result.endReason}` : 'no result within 180 s'}`,
        );
        continue;
      }
      const dir = c.tools.workDir;
      const bash = await readFile(join(dir, `bash-${c.name}.log`), 'utf8').catch(() => '');
      if (bash.trim().split('\n').length !== 1)
        violations.push(`[hosts] ${c.name}: the Bash call's ledger has ${JSON.stringify(bash)} (want one line)`);
      if (!existsSync(join(dir, `written-${c.name}.txt`)))
        violations.push(`[hosts] ${c.name}: Write's file is not in ${c.tools.name}'s directory`);
      // Turns 1-2: one turn child of several model steps (issue 33) or one child per turn.
      const runs = [
        ...(await activityRuns(ctx.client, `${sessionId}/turn-1`)),
        ...(await activityRuns(ctx.client, `${sessionId}/turn-2`).catch((err: unknown) => {
          if (err instanceof Error && /not found/i.test(err.message)) return [];
          throw err;
        })),
      ];
      const tools = runs.filter((r) => r.type === 'runToolUse');
      const models = runs.filter((r) => r.type === 'callModel');
      if (tools.length !== 3)
        violations.push(`[hosts] ${c.name}: ${tools.length} tool activities in turns 1-2 (want 3)`);
      for (const r of tools) {
        if (r.taskQueue !== c.tools.queue || r.identity !== c.tools.name)
          violations.push(
            `[hosts] ${c.name}: a tool call ran on ${r.identity} from queue ${r.taskQueue} (want ${c.tools.name}, ${c.tools.queue})`,
          );
      }
      for (const r of models) {
        if (r.identity !== c.home.name)
          violations.push(`[hosts] ${c.name}: a model call ran on ${r.identity} (want ${c.home.name})`);
      }
      notes.push(
        `${c.name}: session on ${c.home.name}'s queue, ${models.length} model calls on ${c.home.name}, ${tools.length} tool calls on ${c.tools.name} (its directory, its queue); shared store`,
      );
    }
    // Neither host kept session state on its own disk: everything went to the shared store.
    for (const h of [a, b])
      if (existsSync(join(h.storeDir, 'blobs')))
        violations.push(`[hosts] ${h.name} wrote blobs under its own store directory`);
    return { sessions: started.length, violations, notes };
  } finally {
    await a.pool.stop();
    await b.pool.stop();
  }
}
