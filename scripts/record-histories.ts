// Records the histories of representative sessions for the determinism guard
// (test/integration/replay.test.ts replays them against the current workflow code).
//
//   npx tsc -p . && node dist/scripts/record-histories.js [SCENARIO...]
//
// A scenario that does not finish in 5 minutes (DURABLE_AGENT_RECORD_TIMEOUT_MS) fails with the
// session's status instead of hanging.
//
// Runs each session on a Temporal dev server (its own, or TEMPORAL_TEST_ADDRESS) with a real
// worker, the real SDK and the fake Messages API, then writes every run of the session workflow
// and every turn child workflow as standard JSON history (what `temporal workflow show
// --output json` and `Worker.runReplayHistory` read) to test/fixtures/histories/, plus
// manifest.json (file -> workflow id and type: replay needs the workflow id).
// Re-record after a deliberate, versioned change to workflow code (and say so in the commit).
// Never re-record a fixture a patch id relies on: add a new scenario (src/temporal/workflows/versions.ts
// lists which fixture replays which patch). A `<name>-before-patches` scenario is the same session
// recorded by an earlier release: `git worktree add --detach /tmp/old <commit before the patch>`,
// `npm ci` there, copy this script in, build, run it with the scenario's name, then copy the files
// and their manifest entries here (the ones in the repo came from 3306484, the commit before dff3c14).
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { temporal } from '@temporalio/proto';
import {
  lastToolResults,
  lastUserText,
  overloadedError,
  textResponse,
  toolUseResponse,
  type MessagesRequest,
} from '../src/testing/fakeAnthropic';
import { approveToolUse, interruptSession, sendMessage, sessionStatus } from '../src/temporal/client';
import { budgetUpdate, turnProgressQuery } from '../src/temporal/workflows/definitions';
import { createSessionSchedule } from '../src/temporal/schedules';
import { backgroundTaskId } from '../src/tools/bash';
import { monitorTaskId } from '../src/tools/monitor';
import { agentTaskId } from '../src/core/subagents';
import { execFileSync } from 'node:child_process';
import { withAgent, type AgentTestContext, type WithAgentOptions } from '../test/support/agent';
import { closeTestEnv } from '../test/support/temporal';
import { waitFor } from '../test/support/wait';

const OUT = resolve(__dirname, '..', '..', 'test', 'fixtures', 'histories');
const EventType = temporal.api.enums.v1.EventType;

export interface ManifestEntry {
  file: string;
  scenario: string;
  workflowId: string;
  workflowType: string;
  runId: string;
  events: number;
}

/**
 * Writes every run of the session and every turn child, and — recursively — every subagent's child
 * session (`<session>/agent-<id>`, found in the turns' histories) with its turns; returns their
 * manifest entries. Files: `<scenario>[.<agent>].session[.run-<n>].json`, `<scenario>[.<agent>].turn-<n>.json`.
 */
async function save(
  client: Client,
  scenario: string,
  sessionId: string,
  firstRun: string,
  prefix = scenario,
): Promise<ManifestEntry[]> {
  const out: ManifestEntry[] = [];
  const write = async (
    file: string,
    workflowId: string,
    workflowType: string,
    runId: string,
    history: temporal.api.history.v1.IHistory,
  ) => {
    await writeFile(join(OUT, file), `${historyToJSON(history)}\n`);
    out.push({ file, scenario, workflowId, workflowType, runId, events: history.events?.length ?? 0 });
  };
  let runId: string | undefined = firstRun;
  // The turn children by their ids (a child of several model steps, issue 33, covers several turns).
  const turnIds: string[] = [];
  for (let run = 1; runId; run++) {
    const history: temporal.api.history.v1.IHistory = await client.workflow.getHandle(sessionId, runId).fetchHistory();
    await write(`${prefix}.session${run > 1 ? `.run-${run}` : ''}.json`, sessionId, 'sessionWorkflow', runId, history);
    for (const e of history.events ?? []) {
      const started = e.startChildWorkflowExecutionInitiatedEventAttributes;
      if (
        e.eventType === EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED &&
        started?.workflowType?.name === 'turnWorkflow'
      )
        turnIds.push(started.workflowId ?? '');
    }
    const last: temporal.api.history.v1.IHistoryEvent | undefined = history.events?.[history.events.length - 1];
    runId =
      last?.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW
        ? (last.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined)
        : undefined;
  }
  for (const id of turnIds) {
    const turn = id.slice(id.lastIndexOf('/turn-') + '/turn-'.length);
    const handle = client.workflow.getHandle(id);
    const desc = await handle.describe();
    const history = await handle.fetchHistory();
    await write(`${prefix}.turn-${turn}.json`, id, 'turnWorkflow', desc.runId, history);
    for (const e of history.events ?? []) {
      const started = e.startChildWorkflowExecutionInitiatedEventAttributes;
      if (
        e.eventType !== EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED ||
        started?.workflowType?.name !== 'sessionWorkflow'
      )
        continue;
      const childId = started.workflowId ?? '';
      const child = await client.workflow.getHandle(childId).describe();
      out.push(
        ...(await save(
          client,
          scenario,
          childId,
          await firstRunId(client, childId, child.runId),
          `${prefix}.${childId.slice(childId.lastIndexOf('/') + 1)}`,
        )),
      );
    }
  }
  return out;
}

/** A scenario records session `id`, or returns the sessions it made (a schedule's firings) with their file prefixes. */
type Scenario = ((ctx: AgentTestContext, id: string) => Promise<void | Array<{ id: string; prefix: string }>>) & {
  agent?: WithAgentOptions;
};

const scenarios: Record<string, Scenario> = {
  /** A concurrent batch [Grep, Read], then Edit alone, then the model ends its turn. */
  async batch({ fake, start, workDir }, id) {
    await mkdir(join(workDir, 'src'));
    await writeFile(join(workDir, 'src', 'auth.ts'), 'export const timeout = 10;\n');
    await writeFile(join(workDir, 'src', 'other.ts'), 'const timeout = 5;\n');
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_g1', name: 'Grep', input: { pattern: 'timeout', path: 'src' } },
        { id: 'toolu_r1', name: 'Read', input: { file_path: join(workDir, 'src', 'auth.ts') } },
        {
          id: 'toolu_e1',
          name: 'Edit',
          input: { file_path: join(workDir, 'src', 'auth.ts'), old_string: 'timeout = 10', new_string: 'timeout = 30' },
        },
      ]),
      textResponse('Raised the timeout.'),
    );
    const result = await (await start({ id, prompt: 'raise the timeout', tools: ['Grep', 'Read', 'Edit'] })).result();
    if (result.status !== 'completed') throw new Error(`batch: ${result.status} ${result.endReason}`);
  },

  /**
   * The batch scenario recorded after LOCAL_TURN_STORES_PATCH: the end-of-turn writes are local
   * activities (markers), where the histories recorded before have two activities.
   */
  async 'local-stores'(ctx, id) {
    await scenarios.batch!(ctx, id);
  },

  /**
   * The batch scenario recorded after TURN_END_ONE_WRITE_PATCH: the end-of-turn writes are ONE local
   * activity (recordTurnEnd), and the model call describes the blocks it streams and returns (no
   * describeToolUses marker; one streamedToolUse signal per run of blocks, each described).
   */
  async 'turn-end-one-write'(ctx, id) {
    await scenarios.batch!(ctx, id);
  },

  /**
   * A tree budget (issue 34, SESSION_030_PATCH): turn 1 spends past `maxBudgetUsd`, the session waits in
   * budget_exceeded, the `budget` Update raises it, turn 2 completes.
   */
  async 'budget-exceeded'({ fake, start, workDir, client }, id) {
    await writeFile(join(workDir, 'a.txt'), 'alpha\n');
    const usage = { usage: { input_tokens: 100_000, output_tokens: 0 } };
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_ra', name: 'Read', input: { file_path: join(workDir, 'a.txt') } }], usage),
      textResponse('Read it.', usage),
    );
    const handle = await start({
      id,
      prompt: 'read a file',
      tools: ['Read'],
      model: { model: 'claude-sonnet-4-5', maxTokens: 1024 },
      maxBudgetUsd: 0.1,
      onBudget: 'wait',
    });
    await waitFor('budget_exceeded', async () => (await sessionStatus(client, id)).status === 'budget_exceeded');
    await handle.executeUpdate(budgetUpdate, { args: [{ addUsd: 1 }] });
    const result = await handle.result();
    if (result.status !== 'completed') throw new Error(`budget-exceeded: ${result.status} ${result.endReason}`);
  },

  /**
   * A schedule's budget per day (issue 34, SESSION_030_PATCH): $0.25 a day, no per-firing budget. The
   * first firing sums its day (activity schedule-day: nothing yet) and runs with $0.25; its one call
   * spends $0.30 and it completes. The second finds the day spent and ends at once (budget_exceeded).
   */
  async 'daily-budget'({ fake, client, workDir, taskQueue }, id) {
    fake.enqueue(textResponse('done', { usage: { input_tokens: 100_000, output_tokens: 0 } }));
    await createSessionSchedule(
      client,
      {
        prompt: 'nightly job',
        cwd: workDir,
        permissionMode: 'bypassPermissions',
        taskQueue,
        model: { model: 'claude-sonnet-4-5', maxTokens: 1024 },
        onBudget: 'end',
      },
      { scheduleId: id, cron: '0 3 * * *', timeZone: 'UTC', daily: { maxBudgetUsdPerDay: 0.25 } },
    );
    const schedule = client.schedule.getHandle(id);
    const fire = async (n: number): Promise<string> => {
      // A firing's id is the schedule's id and the trigger's second: a second apart, never the same.
      await new Promise((r) => setTimeout(r, 1100));
      await schedule.trigger();
      const session = await waitFor(`firing ${n}`, async () => {
        const d = await schedule.describe();
        return d.info.numActionsTaken >= n ? d.info.recentActions.at(-1)?.action.workflow.workflowId : undefined;
      });
      await client.workflow.getHandle(session).result();
      return session;
    };
    const first = await fire(1);
    const skipped = await fire(2);
    await schedule.delete();
    const r = (await client.workflow.getHandle(skipped).result()) as { status: string; endReason: string };
    if (r.status !== 'budget_exceeded' || !r.endReason.startsWith('skipped:'))
      throw new Error(`daily-budget: the second firing was not skipped: ${r.status} ${r.endReason}`);
    return [
      { id: first, prefix: 'daily-budget.first' },
      { id: skipped, prefix: 'daily-budget.skipped' },
    ];
  },

  /**
   * SESSION_030_PATCH (issue 33): a turn child of several model steps. Turn 1's child runs step 1
   * ([Read]) and step 2 ([Bash sleep 3]); a follow-up sent while Bash runs makes the session signal
   * turnYield, and the child returns after step 2; turn 3's child sends the follow-up and ends.
   */
  async 'turn-steps'({ fake, start, workDir, client }, id) {
    await writeFile(join(workDir, 'a.txt'), 'alpha\n');
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_s1', name: 'Read', input: { file_path: join(workDir, 'a.txt') } }]),
      toolUseResponse([{ id: 'toolu_s2', name: 'Bash', input: { command: 'sleep 3; echo slept' } }]),
      textResponse('Done, and noted.'),
    );
    const handle = await start({ id, prompt: 'read, then wait', tools: ['Read', 'Bash'] });
    const turn = client.workflow.getHandle(`${id}/turn-1`);
    await waitFor('Bash to run in the child', async () =>
      (await turn.query(turnProgressQuery)).running.some((r) => r.toolUseId === 'toolu_s2'),
    );
    await sendMessage(client, id, 'also note the time');
    const result = await handle.result();
    if (result.status !== 'completed' || result.turns !== 3)
      throw new Error(`turn-steps: ${result.status} after ${result.turns} turns: ${result.endReason}`);
  },

  /**
   * TURN_STEP_WRITES_PATCH (issue 33): one turn child of three model steps ([Read a], [Read b], text);
   * steps 1 and 2 leave their writes to the next step's callModel (`stepWrites`): no recordTurnEnd marker.
   */
  async 'turn-step-writes'({ fake, start, workDir }, id) {
    await writeFile(join(workDir, 'a.txt'), 'alpha\n');
    await writeFile(join(workDir, 'b.txt'), 'beta\n');
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_w1', name: 'Read', input: { file_path: join(workDir, 'a.txt') } }]),
      toolUseResponse([{ id: 'toolu_w2', name: 'Read', input: { file_path: join(workDir, 'b.txt') } }]),
      textResponse('Read both.'),
    );
    const handle = await start({ id, prompt: 'read two files', tools: ['Read'], maxStepsPerTurn: 50 });
    const result = await handle.result();
    if (result.status !== 'completed' || result.turns !== 3)
      throw new Error(`turn-step-writes: ${result.status} after ${result.turns} turns: ${result.endReason}`);
  },

  /** [Read, Bash sleep 30]; interrupted while Bash runs; the session ends (onInterrupt 'end'). */
  async interrupt({ fake, start, workDir, client }, id) {
    await writeFile(join(workDir, 'a.txt'), 'alpha\n');
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_ra', name: 'Read', input: { file_path: join(workDir, 'a.txt') } },
        { id: 'toolu_sh', name: 'Bash', input: { command: 'sleep 30; echo finished' } },
      ]),
    );
    const handle = await start({ id, prompt: 'read and wait', tools: ['Read', 'Bash'], onInterrupt: 'end' });
    const turn = client.workflow.getHandle(`${id}/turn-1`);
    await waitFor('Bash to run', async () =>
      (await turn.query(turnProgressQuery)).running.some((r) => r.toolUseId === 'toolu_sh'),
    );
    await interruptSession(client, id, 'fixture');
    const result = await handle.result();
    if (result.status !== 'interrupted') throw new Error(`interrupt: ${result.status} ${result.endReason}`);
  },

  /** permissionMode 'default': a Write asks, waits, is approved by a human, runs; then text. */
  async approval({ fake, start, workDir, client }, id) {
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_w1', name: 'Write', input: { file_path: join(workDir, 'approved.txt'), content: 'yes\n' } },
      ]),
      textResponse('Written.'),
    );
    const handle = await start({ id, prompt: 'write a file', tools: ['Write'], permissionMode: 'default' });
    await waitFor('an approval request', async () => (await sessionStatus(client, id)).pendingApprovals.length === 1);
    await approveToolUse(client, id, 'toolu_w1', 'ann@example');
    const result = await handle.result();
    if (result.status !== 'completed') throw new Error(`approval: ${result.status} ${result.endReason}`);
  },

  /** As `approval`, recorded since turns report every ask's outcome to the session (patch 'approval-outcome'). */
  async 'approval-outcome'({ fake, start, workDir, client }, id) {
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_w1', name: 'Write', input: { file_path: join(workDir, 'approved.txt'), content: 'yes\n' } },
      ]),
      textResponse('Written.'),
    );
    const handle = await start({ id, prompt: 'write a file', tools: ['Write'], permissionMode: 'default' });
    await waitFor('an approval request', async () => (await sessionStatus(client, id)).pendingApprovals.length === 1);
    const answer = await approveToolUse(client, id, 'toolu_w1', 'ann@example');
    if (answer.status !== 'applied') throw new Error(`approval-outcome: ${JSON.stringify(answer)}`);
    const result = await handle.result();
    if (result.status !== 'completed') throw new Error(`approval-outcome: ${result.status} ${result.endReason}`);
  },

  /**
   * Notifications (SESSION_030_PATCH, issue 35): a webhook (a receiver in this process) gets the
   * approval's, the outage's (threshold 0: one overload before turn 2) and the end's notification.
   */
  async notifications({ fake, start, workDir, client }, id) {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const webhook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    try {
      fake.enqueue(
        toolUseResponse([
          { id: 'toolu_n1', name: 'Write', input: { file_path: join(workDir, 'approved.txt'), content: 'yes\n' } },
        ]),
        { ...overloadedError(), retryAfterMs: 50 } as never,
        textResponse('Written.'),
      );
      const handle = await start({
        id,
        prompt: 'write a file',
        tools: ['Write'],
        permissionMode: 'default',
        notify: { webhook, waitingForModelAfterMs: 0 },
      });
      await waitFor('an approval request', async () => (await sessionStatus(client, id)).pendingApprovals.length === 1);
      await approveToolUse(client, id, 'toolu_n1', 'ann@example');
      const result = await handle.result();
      if (result.status !== 'completed') throw new Error(`notifications: ${result.status} ${result.endReason}`);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  },

  /** The model is overloaded twice before turn 1 answers and once before turn 2: the turns wait it out. */
  async outage({ fake, start, workDir }, id) {
    await writeFile(join(workDir, 'a.txt'), 'alpha\n');
    fake.enqueue(
      overloadedError({ retryAfterMs: 100 }),
      overloadedError({ retryAfterMs: 100 }),
      toolUseResponse([{ id: 'toolu_ra', name: 'Read', input: { file_path: join(workDir, 'a.txt') } }]),
      overloadedError(),
      textResponse('Read it.'),
    );
    const result = await (await start({ id, prompt: 'read a file', tools: ['Read'], retryCapMs: 500 })).result();
    if (result.status !== 'completed') throw new Error(`outage: ${result.status} ${result.endReason}`);
  },

  /** maxHistoryBytesPerRun 1: the session continues-as-new after every turn (3 turns, 3 runs). */
  async 'continue-as-new'({ fake, start, workDir }, id) {
    await writeFile(join(workDir, 'a.txt'), 'alpha\n');
    await writeFile(join(workDir, 'b.txt'), 'beta\n');
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_ra', name: 'Read', input: { file_path: join(workDir, 'a.txt') } }]),
      toolUseResponse([{ id: 'toolu_rb', name: 'Read', input: { file_path: join(workDir, 'b.txt') } }]),
      textResponse('Read both.'),
    );
    const result = await (
      await start({ id, prompt: 'read two files', tools: ['Read'], maxHistoryBytesPerRun: 1, maxTurns: 10 })
    ).result();
    if (result.status !== 'completed' || result.turns !== 3)
      throw new Error(`continue-as-new: ${result.status} after ${result.turns} turns: ${result.endReason}`);
  },

  /**
   * checkpoint-own-size: the continue-as-new decision counts the run's own bytes (turn inputs and
   * results, its start payload, a per-turn overhead), never the server's historySize; a 9 kB limit
   * continues after some turns, not all (4 turns over 2 or more runs).
   */
  async 'checkpoint-own-size'({ fake, start, workDir }, id) {
    for (const f of ['a', 'b', 'c']) await writeFile(join(workDir, `${f}.txt`), `${f}\n`.repeat(200));
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_oa', name: 'Read', input: { file_path: join(workDir, 'a.txt') } }]),
      toolUseResponse([{ id: 'toolu_ob', name: 'Read', input: { file_path: join(workDir, 'b.txt') } }]),
      toolUseResponse([{ id: 'toolu_oc', name: 'Read', input: { file_path: join(workDir, 'c.txt') } }]),
      textResponse('Read all three.'),
    );
    const result = await (
      await start({ id, prompt: 'read three files', tools: ['Read'], maxHistoryBytesPerRun: 9_000, maxTurns: 10 })
    ).result();
    if (result.status !== 'completed' || result.turns !== 4)
      throw new Error(`checkpoint-own-size: ${result.status} after ${result.turns} turns: ${result.endReason}`);
  },

  /**
   * Streaming tool execution: the Read and the Grep complete while the message still streams and
   * start early (signals from the model activity); the Edit after them waits for the message.
   */
  async streamed({ fake, start, workDir }, id) {
    await writeFile(join(workDir, 'a.txt'), 'timeout = 10\n');
    fake.enqueue(
      {
        content: [
          { type: 'text', text: 'Looking first.' },
          {
            type: 'tool_use',
            id: 'toolu_sr',
            name: 'Read',
            input: { file_path: join(workDir, 'a.txt') },
            pauseAfterMs: 1000,
          },
          {
            type: 'tool_use',
            id: 'toolu_sg',
            name: 'Grep',
            input: { pattern: 'timeout', path: workDir },
            pauseAfterMs: 1000,
          },
          {
            type: 'tool_use',
            id: 'toolu_se',
            name: 'Edit',
            input: { file_path: join(workDir, 'a.txt'), old_string: '10', new_string: '30' },
          },
        ],
      },
      textResponse('Raised it.'),
    );
    const result = await (await start({ id, prompt: 'raise the timeout', tools: ['Read', 'Grep', 'Edit'] })).result();
    if (result.status !== 'completed') throw new Error(`streamed: ${result.status} ${result.endReason}`);
  },

  /** The stream dies after two early starts; the non-streamed fallback repeats the Read's id (reused) and drops the Grep (discarded). */
  async 'streamed-fallback'({ fake, start, workDir }, id) {
    await writeFile(join(workDir, 'a.txt'), 'alpha\n');
    const read = {
      type: 'tool_use' as const,
      id: 'toolu_fr',
      name: 'Read',
      input: { file_path: join(workDir, 'a.txt') },
    };
    fake.enqueue(
      {
        content: [
          { type: 'text', text: 'Reading.' },
          read,
          {
            type: 'tool_use',
            id: 'toolu_fg',
            name: 'Grep',
            input: { pattern: 'alpha', path: workDir },
            pauseAfterMs: 1500,
          },
        ],
        dropAfterBlocks: 3,
      },
      { content: [{ type: 'text', text: 'Reading.' }, read] },
      textResponse('Read it.'),
    );
    const result = await (await start({ id, prompt: 'read a file', tools: ['Read', 'Grep'] })).result();
    if (result.status !== 'completed') throw new Error(`streamed-fallback: ${result.status} ${result.endReason}`);
  },

  /**
   * A subagent: the parent's Agent call starts a child session (`<id>/agent-toolu_agent`) whose
   * SubagentStart/SubagentStop hooks fire (patch 'subagent-hook-events' in the child); the parent's
   * SessionStart hook fires with source startup ('session-start-sources' in the parent).
   */
  async subagent({ fake, start, workDir }, id) {
    await mkdir(join(workDir, '.claude', 'agents'), { recursive: true });
    await writeFile(
      join(workDir, '.claude', 'agents', 'reviewer.md'),
      '---\nname: reviewer\ndescription: Reviews.\ntools: Read\n---\nYou are MARKER-REVIEWER.\n',
    );
    await writeFile(join(workDir, 'notes.txt'), 'ok\n');
    const rec = `cat >> '${join(workDir, 'hooks.jsonl')}'; echo >> '${join(workDir, 'hooks.jsonl')}'`;
    const hooks = {
      SessionStart: [{ hooks: [{ type: 'command', command: rec }] }],
      SubagentStart: [{ matcher: 'reviewer', hooks: [{ type: 'command', command: rec }] }],
      SubagentStop: [{ matcher: 'reviewer', hooks: [{ type: 'command', command: rec }] }],
    };
    fake.script((req: MessagesRequest) => {
      const system = JSON.stringify(req.system ?? '');
      if (system.includes('MARKER-REVIEWER')) {
        if (!req.messages.some((m) => m.role === 'assistant'))
          return toolUseResponse([
            { id: 'toolu_child_read', name: 'Read', input: { file_path: join(workDir, 'notes.txt') } },
          ]);
        return textResponse('The notes are fine.');
      }
      if (req.messages.length === 1)
        return toolUseResponse([
          {
            id: 'toolu_agent',
            name: 'Agent',
            input: {
              run_in_background: false,
              description: 'review',
              prompt: 'review the notes',
              subagent_type: 'reviewer',
            },
          },
        ]);
      return textResponse('Reviewed.');
    });
    const result = await (
      await start({
        id,
        prompt: 'delegate the review',
        tools: ['Read', 'Agent'],
        permissionMode: 'bypassPermissions',
        hooks: hooks as never,
      })
    ).result();
    if (result.status !== 'completed') throw new Error(`subagent: ${result.status} ${result.endReason}`);
  },

  /**
   * A compaction: in a 30k window (and no clearing of old results) a later turn compacts first (compact-<n>, a summarizing
   * model call) and the SessionStart hook fires with source compact before the next turn (patch
   * 'session-start-sources'); a PreCompact hook runs before the summary.
   */
  async compaction({ fake, start, workDir }, id) {
    const files = ['a', 'b', 'c', 'd', 'e'].map((n) => join(workDir, `${n}.txt`));
    for (const f of files)
      await writeFile(f, `${'note note note note note note note note note note note note\n'.repeat(400)}`);
    const rec = `cat >> '${join(workDir, 'hooks.jsonl')}'; echo >> '${join(workDir, 'hooks.jsonl')}'`;
    let turn = 0;
    fake.script((req: MessagesRequest) => {
      if (lastUserText(req).includes('the conversation is about to be compacted'))
        return textResponse(
          '<summary>1. Primary request: read a.txt to e.txt.\n9. Next step: read the next file.</summary>',
        );
      turn++;
      const file = files[turn - 1];
      return file
        ? toolUseResponse([{ id: `toolu_c${turn}`, name: 'Read', input: { file_path: file } }])
        : textResponse('Read all five.');
    });
    const result = await (
      await start({
        id,
        prompt: 'read a.txt to e.txt, one per turn',
        tools: ['Read'],
        maxTurns: 10,
        contextManagement: { autoCompactWindow: 30_000, clearToolResultsAt: 1_000_000 },
        hooks: {
          SessionStart: [{ hooks: [{ type: 'command', command: rec }] }],
          PreCompact: [{ hooks: [{ type: 'command', command: rec }] }],
        } as never,
      })
    ).result();
    if (result.status !== 'completed') throw new Error(`compaction: ${result.status} ${result.endReason}`);
  },

  async 'cut-off'({ fake, start, workDir }, id) {
    await writeFile(join(workDir, 'a.txt'), 'alpha\n');
    fake.enqueue(
      {
        content: [
          { type: 'text', text: 'Reading two files.' },
          { type: 'tool_use', id: 'toolu_xa', name: 'Read', input: { file_path: join(workDir, 'a.txt') } },
          { type: 'tool_use', id: 'toolu_xb', name: 'Read', input: { file_path: join(workDir, 'a.txt') } },
        ],
        stop_reason: 'max_tokens',
      },
      textResponse('Done.'),
    );
    const result = await (await start({ id, prompt: 'read a file twice', tools: ['Read'] })).result();
    if (result.status !== 'completed') throw new Error(`cut-off: ${result.status} ${result.endReason}`);
  },

  /**
   * The cut-off of 'cut-off', by the model's context window (stop_reason
   * model_context_window_exceeded, issue 31): after CONTEXT_WINDOW_CUT_OFF_PATCH the last Read is
   * answered without running; the `-before-patch` recording (the commit before it) ran it.
   */
  async 'context-window-cut-off'({ fake, start, workDir }, id) {
    await writeFile(join(workDir, 'a.txt'), 'alpha\n');
    fake.enqueue(
      {
        content: [
          { type: 'text', text: 'Reading two files.' },
          { type: 'tool_use', id: 'toolu_wa', name: 'Read', input: { file_path: join(workDir, 'a.txt') } },
          { type: 'tool_use', id: 'toolu_wb', name: 'Read', input: { file_path: join(workDir, 'a.txt') } },
        ],
        stop_reason: 'model_context_window_exceeded',
      },
      textResponse('Done.'),
    );
    const result = await (await start({ id, prompt: 'read a file twice', tools: ['Read'] })).result();
    if (result.status !== 'completed') throw new Error(`context-window-cut-off: ${result.status} ${result.endReason}`);
  },

  /**
   * A session with hooks, rules and an MCP-free configuration stores its tool settings once (local
   * activity storeToolSettings, patch 'tool-settings-ref'); its Read and Grep carry the reference.
   */
  async 'settings-ref'({ fake, start, workDir }, id) {
    await writeFile(join(workDir, 'a.txt'), 'alpha\n');
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_sa', name: 'Read', input: { file_path: join(workDir, 'a.txt') } },
        { id: 'toolu_sb', name: 'Grep', input: { pattern: 'alpha', path: workDir } },
      ]),
      textResponse('Found it.'),
    );
    const hooks = { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'true' }] }] };
    const rules = { allow: ['Bash(npm test:*)'], ask: [], deny: ['Read(./.env)'] };
    const result = await (
      await start({ id, prompt: 'find alpha', tools: ['Read', 'Grep'], hooks: hooks as never, rules })
    ).result();
    if (result.status !== 'completed') throw new Error(`settings-ref: ${result.status} ${result.endReason}`);
  },

  /**
   * issue 33: the stored settings hold the system prompt (storeToolSettings answers `{ settingsRef }`);
   * the turns start with `settingsRef` and no tools, system prompt or agent definitions, and their
   * callModel inputs carry the reference. (settings-ref above holds a bare key: the inline shape.)
   */
  async 'stored-settings'({ fake, start, workDir }, id) {
    await writeFile(join(workDir, 'a.txt'), 'alpha\n');
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_ta', name: 'Read', input: { file_path: join(workDir, 'a.txt') } },
        { id: 'toolu_tb', name: 'Read', input: { file_path: join(workDir, 'a.txt') } },
      ]),
      textResponse('Read it.'),
    );
    const model = {
      model: 'claude-test',
      maxTokens: 1024,
      system: 'You are recorded for the stored-settings fixture.',
    };
    const result = await (await start({ id, prompt: 'read a.txt', tools: ['Read', 'Agent'], model })).result();
    if (result.status !== 'completed') throw new Error(`stored-settings: ${result.status} ${result.endReason}`);
  },
};

/**
 * wakeup (issue 19): the model schedules a wake-up (60 s) and a recurring cron job in one turn and
 * ends it; the session sleeps on its durable timer (waitForWork); each firing is queued and runs a
 * turn (the job's next time from the nextCronFires local activity); at its first tick the model
 * deletes the job; once the wake-up fired too, nothing is pending and the session ends by itself.
 */
scenarios.wakeup = async ({ fake, start }, id) => {
  const jobId = createHash('sha256').update(`${id}/toolu_cron`).digest('hex').slice(0, 8);
  fake.script((req) => {
    const text = lastUserText(req);
    if (text.includes('pace yourself'))
      return toolUseResponse([
        { id: 'toolu_wake', name: 'ScheduleWakeup', input: { delaySeconds: 60, reason: 'poll', prompt: 'WAKE' } },
        { id: 'toolu_cron', name: 'CronCreate', input: { cron: '* * * * *', prompt: 'TICK' } },
      ]);
    if (text.includes('TICK')) return toolUseResponse([{ id: 'toolu_del', name: 'CronDelete', input: { id: jobId } }]);
    return textResponse('Noted.');
  });
  const result = await (
    await start({
      id,
      prompt: 'pace yourself',
      tools: ['ScheduleWakeup', 'CronCreate', 'CronList', 'CronDelete'],
      timeZone: 'UTC',
    })
  ).result();
  if (result.status !== 'completed' || result.turns < 4)
    throw new Error(`wakeup: ${result.status} after ${result.turns} turns: ${result.endReason}`);
};

/**
 * background-tasks (issue 19): two Bash `run_in_background` calls in one turn; the session starts
 * each as its own activity `task-<id>` before the next turn and sleeps while only they are pending;
 * the short one's notification starts a turn in which the model stops the other (TaskStop: the
 * activity is cancelled, no notification); nothing is left and the session ends by itself.
 */
scenarios['background-tasks'] = async ({ fake, start }, id) => {
  const server = backgroundTaskId(id, 'toolu_server');
  fake.script((req) => {
    const text = lastUserText(req);
    if (text.includes('start the jobs'))
      return toolUseResponse([
        {
          id: 'toolu_build',
          name: 'Bash',
          input: { command: 'sleep 1; echo built', run_in_background: true, description: 'Build' },
        },
        { id: 'toolu_server', name: 'Bash', input: { command: 'sleep 120', run_in_background: true } },
      ]);
    if (text.includes('<task-notification>'))
      return toolUseResponse([{ id: 'toolu_stop', name: 'TaskStop', input: { task_id: server } }]);
    return textResponse('Waiting.');
  });
  const result = await (
    await start({ id, prompt: 'start the jobs', tools: ['Bash', 'TaskStop'], toolHeartbeatTimeoutMs: 5_000 })
  ).result();
  if (result.status !== 'completed' || result.turns !== 4)
    throw new Error(`background-tasks: ${result.status} after ${result.turns} turns: ${result.endReason}`);
};

/**
 * task-notification-text: the background-tasks session recorded after that patch: the build's
 * notification is queued with a blank line after its preamble (the patch's marker is in the session).
 */
scenarios['task-notification-text'] = scenarios['background-tasks']!;

/**
 * monitor-tasks (issue 19): two Monitor calls in one turn; the session runs each as its own activity
 * `task-<id>` (runMonitorTask), whose stdout batches arrive as `monitorEvent` signals and start turns;
 * on the long one's first event the model stops it (TaskStop: cancelled, no end notification); the
 * short one's stream ends with its end notification, and the session ends by itself.
 */
scenarios['monitor-tasks'] = async ({ fake, start }, id) => {
  const long = monitorTaskId(id, 'toolu_watch_long');
  let stopped = false;
  fake.script((req) => {
    // Everything the turn added (one user message per queued notification).
    const text = JSON.stringify(req.messages.slice(req.messages.map((m) => m.role).lastIndexOf('assistant') + 1));
    if (text.includes('watch both'))
      return toolUseResponse([
        {
          id: 'toolu_watch_short',
          name: 'Monitor',
          input: {
            description: 'Short',
            timeout_ms: 60_000,
            command: 'echo one; sleep 1; echo two; sleep 1; echo three',
          },
        },
        {
          id: 'toolu_watch_long',
          name: 'Monitor',
          input: { description: 'Long', timeout_ms: 600_000, command: 'echo up; sleep 120' },
        },
      ]);
    if (!stopped && text.includes('<event>up</event>')) {
      stopped = true;
      return toolUseResponse([{ id: 'toolu_stop', name: 'TaskStop', input: { task_id: long } }]);
    }
    return textResponse('Noted.');
  });
  const result = await (
    await start({ id, prompt: 'watch both', tools: ['Monitor', 'TaskStop'], toolHeartbeatTimeoutMs: 5_000 })
  ).result();
  if (result.status !== 'completed' || !stopped)
    throw new Error(`monitor-tasks: ${result.status} after ${result.turns} turns: ${result.endReason}`);
};

/**
 * background-agents (issue 19): two Agent calls without run_in_background in one turn, one with
 * `isolation: "worktree"` (its worktree is made first, then removed: the child changed nothing);
 * each child starts with parent close policy ABANDON and the call returns the launched result; the
 * session waits for both as `local_agent` tasks (awaitAgentTask); the quick one's notification
 * starts a turn in which the model stops the other (TaskStop: the wait is cancelled, the child
 * session cancelled, no notification); the session then ends by itself.
 */
scenarios['background-agents'] = async ({ fake, start, workDir }, id) => {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=r@r', '-c', 'user.name=r', ...args], { cwd: workDir });
  await writeFile(join(workDir, 'a.txt'), 'alpha\n');
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'init');
  const slow = agentTaskId(id, 'toolu_slow');
  let release!: () => void;
  const stopped = new Promise<void>((r) => (release = r));
  fake.script(async (req) => {
    const first = JSON.stringify(req.messages[0]?.content ?? '');
    if (first.includes('SLOW-AGENT')) {
      await stopped;
      return textResponse('slow report');
    }
    if (first.includes('QUICK-AGENT')) return textResponse('quick report');
    const text = lastUserText(req);
    if (text.includes('start the agents'))
      return toolUseResponse([
        {
          id: 'toolu_quick',
          name: 'Agent',
          input: { description: 'quick look', prompt: 'QUICK-AGENT: look', isolation: 'worktree' },
        },
        { id: 'toolu_slow', name: 'Agent', input: { description: 'slow job', prompt: 'SLOW-AGENT: work' } },
      ]);
    if (text.includes('<task-notification>'))
      return toolUseResponse([{ id: 'toolu_stop', name: 'TaskStop', input: { task_id: slow } }]);
    return textResponse('Waiting.');
  });
  try {
    const result = await (
      await start({
        id,
        prompt: 'start the agents',
        tools: ['Agent', 'Read', 'TaskStop'],
        toolHeartbeatTimeoutMs: 5_000,
      })
    ).result();
    if (result.status !== 'completed' || result.turns < 2)
      throw new Error(`background-agents: ${result.status} after ${result.turns} turns: ${result.endReason}`);
  } finally {
    release();
  }
};

/**
 * agent-stop-notice (AGENT_STOP_NOTICE_PATCH): one background Agent whose child's model call waits;
 * the model stops it with TaskStop (the wait and the child session are cancelled) and ends its turn;
 * the agent's "was stopped" notification starts the next turn; the session then ends by itself.
 */
scenarios['agent-stop-notice'] = async ({ fake, start }, id) => {
  const slow = agentTaskId(id, 'toolu_slow');
  let release!: () => void;
  const stopped = new Promise<void>((r) => (release = r));
  let noticed = false;
  fake.script(async (req) => {
    if (JSON.stringify(req.messages[0]?.content ?? '').includes('SLOW-AGENT')) {
      await stopped;
      return textResponse('slow report');
    }
    const text = lastUserText(req);
    if (text.includes('start the agent'))
      return toolUseResponse([
        { id: 'toolu_slow', name: 'Agent', input: { description: 'slow job', prompt: 'SLOW-AGENT: work' } },
      ]);
    if (lastToolResults(req).some((b) => b.tool_use_id === 'toolu_slow'))
      return toolUseResponse([{ id: 'toolu_stop', name: 'TaskStop', input: { task_id: slow } }]);
    if (text.includes('<status>killed</status>')) {
      noticed = true;
      return textResponse('It is stopped.');
    }
    return textResponse('Waiting.');
  });
  try {
    const result = await (
      await start({ id, prompt: 'start the agent', tools: ['Agent', 'TaskStop'], toolHeartbeatTimeoutMs: 5_000 })
    ).result();
    if (result.status !== 'completed' || !noticed)
      throw new Error(
        `agent-stop-notice: ${result.status} after ${result.turns} turns (noticed ${noticed}): ${result.endReason}`,
      );
  } finally {
    release();
  }
};

/**
 * skill-model-subagent: one message calls Skill (a skill naming a model) and then Agent; the child
 * session runs on the skill's model (SKILL_MODEL_SUBAGENT_PATCH: its marker is in the turn).
 */
scenarios['skill-model-subagent'] = async ({ fake, start }, id) => {
  fake.script((req) => {
    const system = JSON.stringify(req.system ?? '');
    if (system.includes('on behalf of another agent')) return textResponse(`child on ${req.model}`);
    if (req.messages.length === 1)
      return toolUseResponse([
        { id: 'toolu_skill', name: 'Skill', input: { skill: 'fast' } },
        {
          id: 'toolu_agent',
          name: 'Agent',
          input: { description: 'same turn', prompt: 'hi', run_in_background: false },
        },
      ]);
    return textResponse('done');
  });
  const skill = {
    name: 'fast',
    description: 'Go fast',
    model: 'claude-skill-model',
    body: 'Go fast.\n',
    dir: '/nowhere/.claude/skills/fast',
    scope: 'project' as const,
    source: '/nowhere/.claude/skills/fast/SKILL.md',
  };
  const result = await (await start({ id, prompt: 'go', tools: ['Read', 'Skill', 'Agent'], skills: [skill] })).result();
  const child = fake
    .messageRequests()
    .find((r) => JSON.stringify(r.system ?? '').includes('on behalf of another agent'));
  if (result.status !== 'completed' || child?.model !== 'claude-skill-model')
    throw new Error(`skill-model-subagent: ${result.status} (${result.endReason}), child model ${child?.model}`);
};

/**
 * queued-after-turn: a Monitor whose stream ends while the session's Stop hook runs after the turn
 * for its event (the hook sleeps 6 s, the command ends 2 s after its start): its end notification is
 * queued after the turn ended the session, and gets a turn of its own (4 turns; before the patch the
 * session ended after 3, the notification unread). The patch's marker is written at the run's start.
 */
scenarios['queued-after-turn'] = async ({ fake, start }, id) => {
  fake.script((req) => {
    const text = JSON.stringify(req.messages.slice(req.messages.map((m) => m.role).lastIndexOf('assistant') + 1));
    if (text.includes('watch the log'))
      return toolUseResponse([
        {
          id: 'toolu_watch',
          name: 'Monitor',
          input: { description: 'Log', timeout_ms: 60_000, command: 'echo started; sleep 2' },
        },
      ]);
    return textResponse('Noted.');
  });
  const result = await (
    await start({
      id,
      prompt: 'watch the log',
      tools: ['Monitor'],
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'sleep 6' }] }] },
    })
  ).result();
  if (result.status !== 'completed' || result.turns !== 4)
    throw new Error(
      `queued-after-turn: ${result.status} after ${result.turns} turns: ${result.endReason}; ${fake
        .messageRequests()
        .map((r) =>
          JSON.stringify(r.messages.slice(r.messages.map((m) => m.role).lastIndexOf('assistant') + 1)).slice(0, 200),
        )
        .join(' | ')}`,
    );
};

/**
 * late-prompts: a session with a UserPromptSubmit hook (it sleeps 6 s) starts two background
 * commands, ending 1 s and 4 s after their start; the first one's notification is checked by the
 * hook, and the second one ends while the hook runs. LATE_PROMPTS_PATCH: the second notification is
 * kept, checked in turn (the hook runs for it too) and reaches the model with the first; before the
 * patch it was dropped. The patch's marker is written at the run's start.
 */
function latePromptsScenario(before: boolean): Scenario {
  return async ({ fake, start }, id) => {
    fake.script((req) => {
      const text = lastUserText(req);
      if (text.includes('start both'))
        return toolUseResponse([
          {
            id: 'toolu_quick',
            name: 'Bash',
            input: { command: 'sleep 1; echo quick-done', run_in_background: true, description: 'Quick' },
          },
          {
            id: 'toolu_slow',
            name: 'Bash',
            input: { command: 'sleep 4; echo slow-done', run_in_background: true, description: 'Slow' },
          },
        ]);
      return textResponse('Noted.');
    });
    const result = await (
      await start({
        id,
        prompt: 'start both',
        tools: ['Bash'],
        toolHeartbeatTimeoutMs: 5_000,
        hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'sleep 6' }] }] },
      })
    ).result();
    // What the last turn added: both notifications (before the patch: the quick one's only).
    const last = fake.messageRequests().at(-1);
    const seen = last
      ? JSON.stringify(last.messages.slice(last.messages.map((m) => m.role).lastIndexOf('assistant') + 1))
      : '';
    if (result.status !== 'completed' || !seen.includes('Quick') || seen.includes('Slow') !== !before)
      throw new Error(
        `late-prompts: ${result.status} after ${result.turns} turns: ${result.endReason}; last turn added ${seen.slice(-600)}`,
      );
  };
}
scenarios['late-prompts'] = latePromptsScenario(false);
/** The same, recorded at 57be178 (the commit before LATE_PROMPTS_PATCH): the slow one's notification is dropped. */
scenarios['late-prompts-before-patch'] = latePromptsScenario(true);

// The same scenarios recorded by an earlier release (run this script in a worktree of the commit
// before a patch, then copy the files: see src/temporal/workflows/versions.ts). Their names say which.
for (const name of ['subagent', 'compaction', 'cut-off'] as const)
  scenarios[`${name}-before-patches`] = scenarios[name]!;
scenarios['context-window-cut-off-before-patch'] = scenarios['context-window-cut-off']!;

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  await mkdir(OUT, { recursive: true });
  const manifest: ManifestEntry[] = [];
  const stamp = Date.now().toString(36);
  for (const [name, run] of Object.entries(scenarios)) {
    if (only.length > 0 && !only.includes(name)) continue;
    await withAgent(run.agent ?? {}, async (ctx) => {
      const id = `fixture-${name}-${stamp}`;
      const made = await withinLimit(name, id, ctx, run(ctx, id));
      const entries: ManifestEntry[] = [];
      for (const target of made ?? [{ id, prefix: name }]) {
        const handle = ctx.client.workflow.getHandle(target.id);
        const first = await firstRunId(ctx.client, target.id, (await handle.describe()).runId);
        entries.push(...(await save(ctx.client, name, target.id, first, target.prefix)));
      }
      ctx.fake.assertDone();
      // Only now, with the new files written: the old recording's files it no longer has go.
      const written = new Set(entries.map((e) => e.file));
      for (const f of await readdir(OUT)) if (f.startsWith(`${name}.`) && !written.has(f)) await rm(join(OUT, f));
      manifest.push(...entries);
    });
    console.log(`recorded ${name}`);
  }
  // Keep the entries of scenarios not re-recorded this time.
  let previous: ManifestEntry[] = [];
  try {
    previous = (JSON.parse(await readFile(join(OUT, 'manifest.json'), 'utf8')) as { histories: ManifestEntry[] })
      .histories;
  } catch {
    // first recording
  }
  const recorded = new Set(manifest.map((m) => m.scenario));
  const histories = [...previous.filter((m) => !recorded.has(m.scenario)), ...manifest].sort((a, b) =>
    a.file.localeCompare(b.file),
  );
  await writeFile(
    join(OUT, 'manifest.json'),
    `${JSON.stringify({ note: 'Written by scripts/record-histories.ts; replayed by test/integration/replay.test.ts.', histories }, null, 2)}\n`,
  );
  for (const m of manifest) console.log(`  ${m.file}: ${m.workflowType} ${m.workflowId}, ${m.events} events`);
}

/** How long one scenario may take (DURABLE_AGENT_RECORD_TIMEOUT_MS; each finishes in seconds when it works). */
const SCENARIO_LIMIT_MS = Number(process.env.DURABLE_AGENT_RECORD_TIMEOUT_MS) || 300_000;

/** A scenario that hangs (a script the session never reaches the end of) fails, saying where the session is. */
async function withinLimit<T>(name: string, id: string, ctx: AgentTestContext, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void sessionStatus(ctx.client, id)
        .then((st) => JSON.stringify(st).slice(0, 2000))
        .catch((err: unknown) => `no status (${err instanceof Error ? err.message : String(err)})`)
        .then((status) =>
          reject(
            new Error(
              `scenario ${name} did not finish in ${SCENARIO_LIMIT_MS} ms (session ${id}; the fake API has ${ctx.fake.messageRequests().length} requests). ` +
                `Status: ${status}. Rerun it alone: node dist/scripts/record-histories.js ${name}`,
            ),
          ),
        );
    }, SCENARIO_LIMIT_MS);
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** The first run of a chain of continued runs, from the last run's started event. */
async function firstRunId(client: Client, workflowId: string, lastRunId: string): Promise<string> {
  const history = await client.workflow.getHandle(workflowId, lastRunId).fetchHistory();
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  return started?.firstExecutionRunId || lastRunId;
}

main()
  .then(() => closeTestEnv())
  .catch(async (err: unknown) => {
    console.error(err);
    await closeTestEnv();
    process.exit(1);
  });
