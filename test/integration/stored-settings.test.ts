// integration: nothing static rides in a turn's history (issue 33). A session stores its system
// prompt, tool names and agent definitions once per run with its tool settings; its turns' start
// (the session's StartChildWorkflowExecutionInitiated, the turn's WorkflowExecutionStarted) and
// their callModel input carry the reference, and the model still gets all of it. A run that stored
// its settings before (its storeToolSettings marker holds a bare key: a session started by 0.2.x)
// keeps them inline and completes the same way. Asserted on the encoded history events of the real
// dev server, and on the requests the fake Messages API received.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import type { TurnWorkflowInput } from '../../src/temporal/workflows/definitions';
import { closeTestEnv } from '../support/temporal';
import { withAgent, type AgentTestContext, type WithAgentOptions } from '../support/agent';

after(closeTestEnv);

const SYSTEM_MARK = 'STATIC-SYSTEM-PROMPT-MARK';
const AGENT_MARK = 'STATIC-AGENT-DESCRIPTION-MARK';
const ET = temporal.api.enums.v1.EventType;
type Event = temporal.api.history.v1.IHistoryEvent;

/** The event as the server stores it: its protobuf bytes (every payload in it, as encoded). */
const encoded = (e: Event): Buffer => Buffer.from(temporal.api.history.v1.HistoryEvent.encode(e).finish());
const holds = (e: Event, mark: string): boolean => encoded(e).includes(mark);

/** A session run that stored its settings before issue 33: storeToolSettings answered a bare key. */
const bareKeyAnswer: ActivityInterceptorsFactory = (ctx) => ({
  inbound: {
    execute: async (input, next) => {
      const r = await next(input);
      return ctx.info.activityType === 'storeToolSettings' ? (r as { settingsRef: string }).settingsRef : r;
    },
  },
});

interface Run {
  sessionStarted: Event;
  childInitiated: Event;
  turnEvents: Event[];
  turnInput: TurnWorkflowInput;
  callModel: Event;
  systemsSent: string[];
  agentToolSent: string[];
}

/** Two turns (three Reads, then an answer); the histories of the session and of turn 1. */
async function session(ctx: AgentTestContext, id: string): Promise<Run> {
  await mkdir(join(ctx.workDir, '.claude', 'agents'), { recursive: true });
  await writeFile(
    join(ctx.workDir, '.claude', 'agents', 'marked.md'),
    `---\nname: marked\ndescription: ${AGENT_MARK} reviews code.\ntools: Read\n---\n${'Review carefully. '.repeat(50)}\n`,
  );
  for (const n of ['a', 'b', 'c']) await writeFile(join(ctx.workDir, `${n}.txt`), `${n}\n`);
  ctx.fake.enqueue(
    toolUseResponse(
      ['a', 'b', 'c'].map((n) => ({
        id: `toolu_${n}`,
        name: 'Read',
        input: { file_path: join(ctx.workDir, `${n}.txt`) },
      })),
    ),
    textResponse('Read them.'),
  );
  const handle = await ctx.start({
    id,
    prompt: 'read three files',
    tools: ['Read', 'Agent'],
    model: { model: 'claude-test', maxTokens: 1024, system: `${SYSTEM_MARK} ${'Be brief. '.repeat(60)}` },
  });
  const result = await handle.result();
  assert.equal(result.status, 'completed', result.endReason);
  const sessionEvents = (await ctx.client.workflow.getHandle(id).fetchHistory()).events ?? [];
  const turnEvents = (await ctx.client.workflow.getHandle(`${id}/turn-1`).fetchHistory()).events ?? [];
  const childInitiated = sessionEvents.find(
    (e) => e.eventType === ET.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED,
  );
  const started = turnEvents.find((e) => e.eventType === ET.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED);
  const callModel = turnEvents.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callModel');
  assert.ok(childInitiated && started && callModel && sessionEvents[0]);
  const data = started.workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data;
  const bodies = ctx.fake.requests.map(
    (r) => r.body as { system?: unknown; tools?: Array<{ name: string; description?: string }> },
  );
  return {
    sessionStarted: sessionEvents[0],
    childInitiated,
    turnEvents,
    turnInput: JSON.parse(Buffer.from(data ?? new Uint8Array()).toString('utf8')) as TurnWorkflowInput,
    callModel,
    systemsSent: bodies.map((b) => JSON.stringify(b.system ?? '')),
    agentToolSent: bodies.map((b) => b.tools?.find((t) => t.name === 'Agent')?.description ?? ''),
  };
}

async function run(opts: WithAgentOptions, id: string): Promise<Run> {
  return withAgent(opts, (ctx) => session(ctx, id));
}

const bytes = (e: Event): number => encoded(e).length;

test(
  "integration: a turn's history holds no system prompt, tool names or agent definitions; the model gets them; a run that stored its settings before keeps them inline",
  { timeout: 240_000 },
  async () => {
    const stamp = Date.now().toString(36);
    const byRef = await run({}, `stored-settings-ref-${stamp}`);
    // Positive control: the marks are findable in encoded events (the session's own input holds them, once per run).
    assert.ok(holds(byRef.sessionStarted, SYSTEM_MARK), "the session's input holds the system prompt");
    assert.ok(!holds(byRef.childInitiated, SYSTEM_MARK), "the session's child start holds no system prompt");
    assert.ok(!holds(byRef.childInitiated, AGENT_MARK), "the session's child start holds no agent definitions");
    for (const e of byRef.turnEvents) {
      assert.ok(!holds(e, SYSTEM_MARK), `turn event ${e.eventId} (${ET[e.eventType ?? 0]}) holds no system prompt`);
      assert.ok(!holds(e, AGENT_MARK), `turn event ${e.eventId} (${ET[e.eventType ?? 0]}) holds no agent definitions`);
    }
    assert.match(byRef.turnInput.settingsRef ?? '', /^toolsettings-[0-9a-f]{64}$/);
    assert.equal(byRef.turnInput.tools, undefined);
    // The model got them all the same, on every call.
    assert.equal(byRef.systemsSent.length, 2);
    for (const s of byRef.systemsSent) assert.ok(s.includes(SYSTEM_MARK), 'the request carries the system prompt');
    for (const d of byRef.agentToolSent) assert.ok(d.includes(AGENT_MARK), 'the Agent tool lists the agent');

    const inline = await run(
      { worker: { workerOptions: { interceptors: { activity: [bareKeyAnswer] } } } },
      `stored-settings-old-${stamp}`,
    );
    assert.equal(inline.turnInput.settingsRef, undefined);
    assert.match(inline.turnInput.toolSettingsRef ?? '', /^toolsettings-[0-9a-f]{64}$/);
    assert.ok(
      holds(inline.childInitiated, SYSTEM_MARK) && holds(inline.childInitiated, AGENT_MARK),
      'inline, as recorded before',
    );
    assert.ok(holds(inline.callModel, SYSTEM_MARK), "the old shape's callModel input holds the system prompt");
    assert.deepEqual(inline.systemsSent, byRef.systemsSent, 'the same requests either way');
    assert.deepEqual(inline.agentToolSent, byRef.agentToolSent);

    const sizes = (r: Run) => [r.childInitiated, r.turnEvents[0] as Event, r.callModel].map(bytes);
    const [a, b] = [sizes(byRef), sizes(inline)];
    console.log(
      `[stored-settings] child initiated / turn started / callModel scheduled: ${a.join(' / ')} B by reference, ${b.join(' / ')} B inline`,
    );
    for (let i = 0; i < 3; i++) assert.ok((a[i] as number) + 900 < (b[i] as number), `${a[i]} B vs ${b[i]} B`);
  },
);
