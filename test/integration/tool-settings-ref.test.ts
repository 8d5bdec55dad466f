// integration: a session's configuration does not ride in every tool call's history (invariant 11;
// issue 21 finding 7). A session with 20 hooks, 10 MCP servers and 10 agent types stores its tool
// settings once per run; each runToolUse input carries a reference, so a tool call adds as many
// history bytes as in a session configured with nothing. Measured on the real dev server from the
// ActivityTaskScheduled events' input payloads.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { temporal } from '@temporalio/proto';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { LocalBlobStore } from '../../src/stores/messageStore';
import { configuredBlobStore } from '../../src/stores/configured';
import { ToolSettingsStore } from '../../src/stores/toolSettingsStore';
import { StepStaticsStore } from '../../src/stores/stepStaticsStore';
import { resolveToolSession } from '../../src/toolCall/tools';
import { storedToolSettings, toolSession } from '../../src/temporal/workflows/toolSettings';
import { sessionInput } from '../../src/temporal/client';
import type { TurnWorkflowInput } from '../../src/temporal/workflows/definitions';
import { closeTestEnv } from '../support/temporal';
import { withAgent, type AgentTestContext } from '../support/agent';
import { waitFor } from '../support/wait';

after(closeTestEnv);

const testServer = join(__dirname, '..', 'support', 'mcpServer.js');

interface Scheduled {
  activityId: string;
  bytes: number;
  input: unknown;
}

/** The runToolUse activities a workflow scheduled: their ids, input payload bytes and decoded input. */
function runToolUseInputs(history: temporal.api.history.v1.IHistory): Scheduled[] {
  return (history.events ?? []).flatMap((e) => {
    const a = e.activityTaskScheduledEventAttributes;
    if (!a || a.activityType?.name !== 'runToolUse') return [];
    const payloads = a.input?.payloads ?? [];
    const input = JSON.parse(Buffer.from(payloads[0]?.data ?? new Uint8Array()).toString('utf8')) as {
      stepRef?: string;
      messageRef?: string;
    };
    // A call handed over while its message streamed names its block's node (issue 33), one of the
    // model's answer does not (its key names the node): which one a call is depends on timing.
    const streamedNode =
      input.stepRef !== undefined && input.messageRef ? `,"messageRef":"${input.messageRef}"`.length : 0;
    const bytes = payloads.reduce((n, p) => n + (p.data?.length ?? 0), 0) - streamedNode;
    return [{ activityId: a.activityId ?? '', bytes, input }];
  });
}

/** Three Reads in one message, then an answer; the session's id has the same length in both runs. */
async function threeReads(ctx: AgentTestContext, id: string, extra: Record<string, unknown>): Promise<Scheduled[]> {
  for (const n of ['a', 'b', 'c']) await writeFile(join(ctx.workDir, `${n}.txt`), `${n}\n`);
  ctx.fake.enqueue(
    toolUseResponse(
      ['a', 'b', 'c'].map((n) => ({
        id: `toolu_r${n}`,
        name: 'Read',
        input: { file_path: join(ctx.workDir, `${n}.txt`) },
      })),
    ),
    textResponse('Read them.'),
  );
  const handle = await ctx.start({ id, prompt: 'read three files', tools: ['Read', 'Agent'], ...extra });
  const result = await handle.result();
  assert.equal(result.status, 'completed', result.endReason);
  return runToolUseInputs(await ctx.client.workflow.getHandle(`${id}/turn-1`).fetchHistory());
}

test(
  'integration: 20 hooks, 10 MCP servers and 10 agents add no history bytes per tool call (the settings go by reference)',
  { timeout: 180_000 },
  async () => {
    const portFile = join(await mkdtemp(join(tmpdir(), 'mcp-http-')), 'port');
    const server: ChildProcess = spawn(process.execPath, [testServer, 'http', portFile], { stdio: 'ignore' });
    try {
      let port = '';
      port = await waitFor(
        'the MCP server to write its port',
        () => readFile(portFile, 'utf8').catch(() => ''),
        60_000,
        50,
      ).catch(() => '');
      assert.ok(port, 'the MCP server wrote its port');
      const stamp = Date.now().toString(36);

      const plain = await withAgent({}, (ctx) => threeReads(ctx, `settings-plain-${stamp}`, {}));

      let stored = 0;
      const big = await withAgent({}, async (ctx) => {
        await mkdir(join(ctx.workDir, '.claude', 'agents'), { recursive: true });
        for (let i = 0; i < 10; i++) {
          await writeFile(
            join(ctx.workDir, '.claude', 'agents', `agent${i}.md`),
            `---\nname: agent${i}\ndescription: Agent number ${i}.\ntools: Read\n---\n${`You are agent ${i}; review carefully and report. `.repeat(40)}\n`,
          );
        }
        // 20 hooks that never match these calls (they need not run to be configuration).
        const hooks = {
          PreToolUse: Array.from({ length: 20 }, (_, i) => ({
            matcher: `NoSuchTool${i}`,
            hooks: [{ type: 'command', command: `echo hook ${i} ${'x'.repeat(200)} >/dev/null`, timeout: 30 }],
          })),
        };
        const mcpServers = Object.fromEntries(
          Array.from({ length: 10 }, (_, i) => [
            `srv${i}`,
            {
              type: 'http',
              url: `http://127.0.0.1:${port}/mcp`,
              headers: { 'X-Server': `server-${i}-${'h'.repeat(100)}` },
            },
          ]),
        );
        const rules = {
          allow: Array.from({ length: 30 }, (_, i) => `Bash(npm run script-${i}:*)`),
          ask: [],
          deny: ['Read(./.env)'],
        };
        const calls = await threeReads(ctx, `settings-large-${stamp}`, { hooks, mcpServers, rules });
        // The settings really are large: what every call would carry inline.
        // The tool call names its turn's stored step inputs (stepRef, issue 33), which hold its tool session.
        const input = calls[0]?.input as { session?: { settingsRef?: string }; stepRef?: string };
        const blobs = configuredBlobStore({ storeDir: ctx.storeDir });
        const viaStep = input.stepRef
          ? ((await new StepStaticsStore(blobs).resolve(input.stepRef)).statics.describeWith as {
              session?: { settingsRef?: string };
            })
          : undefined;
        const ref = input.session?.settingsRef ?? viaStep?.session?.settingsRef;
        assert.match(ref ?? '', /^toolsettings-[0-9a-f]{64}$/);
        const settings = await new ToolSettingsStore(blobs).get(ref as string);
        assert.equal(settings.hooks?.PreToolUse?.length, 20);
        assert.equal(Object.keys(settings.mcpServers ?? {}).length, 10);
        assert.equal(settings.agents?.filter((a) => a.name.startsWith('agent')).length, 10);
        stored = JSON.stringify(settings).length;
        return calls;
      });

      assert.equal(plain.length, 3);
      assert.equal(big.length, 3);
      const perCall = (xs: Scheduled[]) => xs.reduce((n, x) => n + x.bytes, 0) / xs.length;
      console.log(
        `[settings-ref] runToolUse input per call: ${perCall(plain)} B without configuration, ${perCall(big)} B with 20 hooks, 10 MCP servers, 10 agents (their settings: ${stored} B, stored once)`,
      );
      assert.ok(stored > 20_000, `the configuration is large (${stored} B)`);
      for (let i = 0; i < 3; i++) {
        // Same ids, same-length paths and refs: equal within a few bytes (paths of two temp dirs, a ref vs a ref).
        assert.ok(
          Math.abs((big[i] as Scheduled).bytes - (plain[i] as Scheduled).bytes) <= 16,
          `${big[i]?.activityId}: ${big[i]?.bytes} B vs ${plain[i]?.bytes} B`,
        );
      }
    } finally {
      server.kill();
    }
  },
);

test('unit: a tool session by reference resolves to the whole settings; an inline one (histories before the patch) is used as it is', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'da-settings-'));
  const store = new ToolSettingsStore(new LocalBlobStore(dir));
  const ref = await store.put({
    toolNames: ['Read'],
    rules: { allow: ['Read'], ask: [], deny: [] },
    sandbox: {},
    hooks: { PreToolUse: [] },
  });
  assert.equal(
    await store.put({
      toolNames: ['Read'],
      rules: { allow: ['Read'], ask: [], deny: [] },
      sandbox: {},
      hooks: { PreToolUse: [] },
    }),
    ref,
    'content-addressed',
  );
  const resolved = await resolveToolSession(
    { sessionId: 's', ledgerKey: 'k', settingsRef: ref, mode: 'acceptEdits', workingDirectories: ['/w'] },
    new ToolSettingsStore(new LocalBlobStore(dir)),
  );
  assert.deepEqual(resolved, {
    sessionId: 's',
    ledgerKey: 'k',
    toolNames: ['Read'],
    permission: {
      mode: 'acceptEdits',
      rules: { allow: ['Read'], ask: [], deny: [] },
      workingDirectories: ['/w'],
      sandbox: {},
    },
    hooks: { PreToolUse: [] },
  });
  const inline = {
    sessionId: 's',
    toolNames: ['Read'],
    permission: { mode: 'default' as const, rules: { allow: [], ask: [], deny: [] }, workingDirectories: ['/w'] },
  };
  assert.equal(await resolveToolSession(inline, undefined), inline);
  await assert.rejects(
    resolveToolSession(
      { sessionId: 's', settingsRef: 'toolsettings-00', mode: 'default', workingDirectories: ['/w'] },
      store,
    ),
    (e: Error & { code?: string }) => e.code === 'STORE_BLOB_MISSING',
  );
});

test("unit: a turn's tool session by reference resolves to exactly what the turn sends inline (every field the session stores)", async () => {
  const input = {
    ...sessionInput({
      prompt: 'x',
      cwd: '/w',
      tools: ['Read', 'Agent'],
      rules: { allow: ['Read'], ask: ['Bash'], deny: ['Read(./.env)'] },
      additionalDirectories: ['/x'],
    }),
    hooks: { PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command' as const, command: 'true' }] }] },
    mcpServers: { s: { type: 'http' as const, url: 'http://127.0.0.1:1/mcp' } },
    agents: [{ name: 'a', description: 'd', prompt: 'p', source: 'built-in' } as never],
  };
  // The turn input as the session workflow builds it (runTurnChild).
  const turn = {
    sessionId: 's',
    ledgerKey: 'k',
    turn: 1,
    head: null,
    append: [],
    model: input.model,
    tools: input.tools,
    permissionMode: 'acceptEdits',
    rules: input.rules,
    sandbox: input.sandbox,
    hooks: input.hooks,
    mcpServers: input.mcpServers,
    agentHookFields: { session_id: 'p', agent_id: 'p/agent-1', agent_type: 'a' },
    context: { cwd: '/w', additionalDirectories: ['/x'], readFiles: {} },
    maxConcurrency: 10,
    approvalTimeoutMs: 1000,
    subagents: { agents: input.agents },
  } as unknown as TurnWorkflowInput;
  const store = new ToolSettingsStore(new LocalBlobStore(await mkdtemp(join(tmpdir(), 'da-settings-'))));
  const ref = await store.put(storedToolSettings(input));
  assert.deepEqual(await resolveToolSession(toolSession({ ...turn, toolSettingsRef: ref }), store), toolSession(turn));
});
