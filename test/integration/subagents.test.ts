// integration: subagents as child session workflows on the real dev server. The fake model serves
// the parent and the children, routed by the system prompt (each agent file's body carries a
// marker). Two Agent calls in one message run in parallel (each child's first model request waits
// until the other's has arrived: run one after the other, they would never finish); the child is a
// workflow `<session>/agent-<tool_use_id>` whose parent is the turn; its final text is the
// tool_result; an interrupt of the parent cancels the running child and its tool.
import { after, test } from 'node:test';
import { turnResultFromHistory } from '../../src/core/payloads';
import type { TurnWorkflowResult } from '../../src/temporal/workflows/definitions';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lastToolResults, textResponse, toolUseResponse, type MessagesRequest } from '../../src/testing/fakeAnthropic';
import { approveToolUse, interruptSession, sendMessage } from '../../src/temporal/client';
import { followSession } from '../../src/cli/follow';
import { cli } from '../support/cli';
import { buildAudit, formatAuditText } from '../../src/audit';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { TEST_TOOLS } from '../support/testTools';
import { waitFor } from '../support/wait';
import { McpManager } from '../../src/mcp/manager';

const everythingServer = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

after(closeTestEnv);

function systemOf(req: MessagesRequest): string {
  const s = req.system as unknown;
  if (typeof s === 'string') return s;
  return Array.isArray(s) ? s.map((b) => (b as { text?: string }).text ?? '').join('\n') : '';
}

async function agentFile(workDir: string, name: string, marker: string, tools: string): Promise<void> {
  await mkdir(join(workDir, '.claude', 'agents'), { recursive: true });
  await writeFile(
    join(workDir, '.claude', 'agents', `${name}.md`),
    `---\nname: ${name}\ndescription: The ${name} agent.\ntools: ${tools}\n---\nYou are ${marker}. Do the task and report.\n`,
  );
}

async function lines(file: string): Promise<string[]> {
  return (await readFile(file, 'utf8').catch(() => '')).split('\n').filter((l) => l !== '');
}

test(
  'integration: two Agent calls run as parallel child workflows; each final text is its tool_result',
  { timeout: 120_000 },
  async () => {
    await withAgent({ worker: { tools: TEST_TOOLS } }, async ({ fake, start, workDir, client }) => {
      await agentFile(workDir, 'alpha', 'MARKER-ALPHA', 'Read, AppendSlow');
      await agentFile(workDir, 'beta', 'MARKER-BETA', 'Read');
      const log = join(workDir, 'alpha.log');
      let release!: () => void;
      const bothStarted = new Promise<void>((r) => (release = r));
      const firsts = new Set<string>();
      fake.script(async (req) => {
        const sys = systemOf(req);
        const n = req.messages.length;
        for (const who of ['ALPHA', 'BETA']) {
          if (!sys.includes(`MARKER-${who}`)) continue;
          if (n === 1) {
            firsts.add(who);
            if (firsts.size === 2) release();
            await bothStarted; // parallel, or never
          }
          if (who === 'ALPHA' && n === 1)
            return toolUseResponse([
              { id: 'toolu_alpha_append', name: 'AppendSlow', input: { file: log, text: 'alpha' } },
            ]);
          return textResponse(`${who.toLowerCase()} report: all good\n\n- second line`);
        }
        if (n === 1) {
          return toolUseResponse([
            {
              id: 'toolu_agent_a',
              name: 'Agent',
              input: {
                run_in_background: false,
                description: 'alpha task',
                prompt: 'append alpha',
                subagent_type: 'alpha',
              },
            },
            {
              id: 'toolu_agent_b',
              name: 'Task',
              input: {
                run_in_background: false,
                description: 'beta task',
                prompt: 'just report',
                subagent_type: 'beta',
              },
            },
          ]);
        }
        return textResponse('both agents reported');
      });
      const handle = await start({ prompt: 'use two agents', tools: ['Read', 'Grep', 'Agent', 'AppendSlow'] });
      const result = await handle.result();
      assert.equal(result.status, 'completed', result.endReason);
      assert.equal(result.lastText, 'both agents reported');

      // The parent's second request carries both children's final texts as tool_results.
      const parentReqs = fake.messageRequests().filter((r) => !systemOf(r).includes('MARKER-'));
      assert.equal(parentReqs.length, 2);
      const results = lastToolResults(parentReqs[1]!);
      assert.deepEqual(
        results.map((r) => r.tool_use_id),
        ['toolu_agent_a', 'toolu_agent_b'],
      );
      // As the reference: the final text whole (lines kept), then the child's counters.
      const blocks = results.map((r) => r.content as Array<{ type: string; text: string }>);
      assert.deepEqual(
        blocks.map((b) => b[0]),
        [
          { type: 'text', text: 'alpha report: all good\n\n- second line' },
          { type: 'text', text: 'beta report: all good\n\n- second line' },
        ],
      );
      assert.match(blocks[0]![1]!.text, /^<usage>subagent_tokens: [1-9]\d*\ntool_uses: 1\nduration_ms: \d+<\/usage>$/);
      assert.match(blocks[1]![1]!.text, /^<usage>subagent_tokens: [1-9]\d*\ntool_uses: 0\nduration_ms: \d+<\/usage>$/);
      assert.ok(results.every((r) => r.is_error !== true));
      // The parent was offered Agent, listing the project's agents; a child was not (no nesting), and got only its tools.
      const agentTool = (parentReqs[0]!.tools as Array<{ name: string; description?: string }> | undefined)?.find(
        (t) => t.name === 'Agent',
      ) as { description?: string } | undefined;
      assert.match(agentTool?.description ?? '', /- alpha: The alpha agent\./);
      const alphaReq = fake.messageRequests().find((r) => systemOf(r).includes('MARKER-ALPHA'))!;
      assert.deepEqual(((alphaReq.tools ?? []) as Array<{ name: string }>).map((t) => t.name).sort(), [
        'AppendSlow',
        'Read',
      ]);
      assert.deepEqual(await lines(log), ['alpha']);

      // The children are workflows of their own, children of the parent's turn.
      for (const id of ['toolu_agent_a', 'toolu_agent_b']) {
        const desc = await client.workflow.getHandle(`${handle.workflowId}/agent-${id}`).describe();
        assert.equal(desc.type, 'sessionWorkflow');
        assert.equal(desc.status.name, 'COMPLETED');
        assert.equal(desc.parentExecution?.workflowId, `${handle.workflowId}/turn-1`);
      }
      const childTurn = await client.workflow.getHandle(`${handle.workflowId}/agent-toolu_agent_a/turn-1`).describe();
      assert.equal(childTurn.status.name, 'COMPLETED');
      fake.assertDone();

      // The audit shows the tree: the Agent calls with their child sessions, and each child's own calls.
      const audit = await buildAudit(client, handle.workflowId);
      const agentCalls = audit.toolCalls.filter((c) => c.subagent);
      assert.deepEqual(
        agentCalls.map((c) => [c.toolUseId, c.status, c.subagent]),
        [
          ['toolu_agent_a', 'ok', `${handle.workflowId}/agent-toolu_agent_a`],
          ['toolu_agent_b', 'ok', `${handle.workflowId}/agent-toolu_agent_b`],
        ],
      );
      assert.deepEqual(
        agentCalls[0]!.activities.map((a) => a.activityId),
        ['agent-pre-toolu_agent_a', 'agent-post-toolu_agent_a'],
      );
      assert.equal(agentCalls[0]!.summary, 'Agent alpha: alpha task');
      assert.deepEqual(
        audit.subagents?.map((r) => [r.session.sessionId, r.session.status]),
        [
          [`${handle.workflowId}/agent-toolu_agent_a`, 'completed'],
          [`${handle.workflowId}/agent-toolu_agent_b`, 'completed'],
        ],
      );
      assert.deepEqual(
        audit.subagents?.[0]?.toolCalls.map((c) => [c.toolUseId, c.status]),
        [['toolu_alpha_append', 'ok']],
      );
      assert.match(
        formatAuditText(audit),
        new RegExp(`\\n    Session ${handle.workflowId}/agent-toolu_agent_a: completed`),
      );
    });
  },
);

test(
  'integration: an interrupt of the parent cancels the running subagent and its tool',
  { timeout: 120_000 },
  async () => {
    await withAgent({ worker: { tools: TEST_TOOLS } }, async ({ fake, start, workDir, client }) => {
      const log = join(workDir, 'slow.log');
      fake.script((req) => {
        const sys = systemOf(req);
        if (sys.includes('You are an agent run by durable-agent on behalf of another agent')) {
          return toolUseResponse([
            { id: 'toolu_child_slow', name: 'AppendSlow', input: { file: log, text: 'slow', delayMs: 600_000 } },
          ]);
        }
        return toolUseResponse([
          {
            id: 'toolu_agent_1',
            name: 'Agent',
            input: { run_in_background: false, description: 'slow work', prompt: 'append slowly' },
          },
        ]);
      });
      const handle = await start({ prompt: 'delegate', tools: ['Read', 'Agent', 'AppendSlow'], onInterrupt: 'end' });
      await waitFor('the child tool to start', async () => (await lines(log)).length >= 1);
      await interruptSession(client, handle.workflowId);
      const result = await handle.result();
      assert.equal(result.status, 'interrupted');
      const child = await client.workflow.getHandle(`${handle.workflowId}/agent-toolu_agent_1`).describe();
      assert.equal(child.status.name, 'CANCELLED');
      const turn = turnResultFromHistory(
        (await client.workflow.getHandle(`${handle.workflowId}/turn-1`).result()) as TurnWorkflowResult,
      );
      assert.deepEqual(
        turn.records.map((r) => [r.toolUseId, r.status]),
        [['toolu_agent_1', 'interrupted']],
      );
    });
  },
);

test(
  'integration: a subagent uses MCP tools: an agent listing one MCP tool is offered that one only (another is "No such tool"), disallowedTools hides one; an agent without tools gets every MCP tool',
  { timeout: 120_000 },
  async () => {
    const manager = new McpManager({ startupTimeoutMs: 30_000, toolTimeoutMs: 30_000 });
    await withAgent({ worker: { mcp: manager } }, async ({ fake, start, workDir }) => {
      await agentFile(workDir, 'echoer', 'MARKER-ECHOER', 'mcp__everything__echo');
      await mkdir(join(workDir, '.claude', 'agents'), { recursive: true });
      await writeFile(
        join(workDir, '.claude', 'agents', 'noenv.md'),
        '---\nname: noenv\ndescription: all but get-env\ndisallowedTools: mcp__everything__get-env\n---\nYou are MARKER-NOENV.\n',
      );
      fake.script((req) => {
        const sys = systemOf(req);
        const n = req.messages.length;
        if (sys.includes('MARKER-ECHOER')) {
          if (n === 1) {
            return toolUseResponse([
              { id: 'toolu_e_echo', name: 'mcp__everything__echo', input: { message: 'from the child' } },
              { id: 'toolu_e_env', name: 'mcp__everything__get-env', input: {} },
            ]);
          }
          return textResponse('echoer done');
        }
        if (sys.includes('MARKER-NOENV') || sys.includes('on behalf of another agent')) return textResponse('listed');
        if (n === 1) {
          return toolUseResponse([
            {
              id: 'toolu_ag_echo',
              name: 'Agent',
              input: { run_in_background: false, description: 'echo', prompt: 'echo it', subagent_type: 'echoer' },
            },
            {
              id: 'toolu_ag_noenv',
              name: 'Agent',
              input: { run_in_background: false, description: 'noenv', prompt: 'list', subagent_type: 'noenv' },
            },
            {
              id: 'toolu_ag_gp',
              name: 'Agent',
              input: { run_in_background: false, description: 'general', prompt: 'list' },
            },
          ]);
        }
        return textResponse('parent done');
      });
      const handle = await start({
        prompt: 'delegate to MCP users',
        tools: ['Read', 'Agent'],
        mcpServers: { everything: { command: process.execPath, args: [everythingServer] } },
      });
      const result = await handle.result();
      assert.equal(result.status, 'completed', result.endReason);
      const toolsOf = (marker: string): string[] =>
        (
          (fake.messageRequests().find((r) => systemOf(r).includes(marker))?.tools ?? []) as Array<{ name: string }>
        ).map((t) => t.name);
      assert.deepEqual(toolsOf('MARKER-ECHOER'), ['mcp__everything__echo']);
      const noenv = toolsOf('MARKER-NOENV');
      assert.ok(
        noenv.includes('mcp__everything__echo') &&
          noenv.includes('Read') &&
          !noenv.includes('mcp__everything__get-env'),
        noenv.join(','),
      );
      const gp = toolsOf('on behalf of another agent');
      assert.ok(gp.includes('mcp__everything__echo') && gp.includes('mcp__everything__get-env'), gp.join(','));
      const echoerSecond = fake
        .messageRequests()
        .find((r) => systemOf(r).includes('MARKER-ECHOER') && r.messages.length === 3)!;
      const [echo, env] = lastToolResults(echoerSecond);
      assert.notEqual(echo?.is_error, true);
      assert.match(JSON.stringify(echo?.content), /Echo: from the child/);
      assert.equal(env?.is_error, true, 'a tool the agent does not list is not run');
      assert.doesNotMatch(JSON.stringify(env?.content), /PATH|HOME/);
    });
    await manager.close();
  },
);

test(
  'integration: cancelling the parent session cancels its subagent and the subagent tool; an interrupt then a follow-up tells the model the Agent call was interrupted',
  { timeout: 120_000 },
  async () => {
    await withAgent({ worker: { tools: TEST_TOOLS } }, async ({ fake, start, workDir, client }) => {
      const log = join(workDir, 'slow.log');
      fake.script((req) => {
        const sys = systemOf(req);
        if (sys.includes('on behalf of another agent')) {
          return toolUseResponse([
            {
              id: `toolu_child_slow_${req.messages.length}`,
              name: 'AppendSlow',
              input: { file: log, text: 'slow', delayMs: 600_000 },
            },
          ]);
        }
        if (req.messages.length === 1)
          return toolUseResponse([
            {
              id: 'toolu_agent_c',
              name: 'Agent',
              input: { run_in_background: false, description: 'slow work', prompt: 'append slowly' },
            },
          ]);
        return textResponse('after the follow-up');
      });
      // Cancel: the parent, its turn, the child and the child's tool all end cancelled.
      const cancelled = await start({ prompt: 'delegate', tools: ['Read', 'Agent', 'AppendSlow'] });
      await waitFor('the child tool to start', async () => (await lines(log)).length >= 1);
      await cancelled.cancel();
      await assert.rejects(cancelled.result());
      const childId = `${cancelled.workflowId}/agent-toolu_agent_c`;
      await waitFor(
        'the child to be cancelled',
        async () => (await client.workflow.getHandle(childId).describe()).status.name === 'CANCELLED',
        30_000,
      );
      // The child's turn ends at once (not after the tool's 10 minutes): its tool call was cancelled and recorded as interrupted.
      const childTurn = turnResultFromHistory(
        (await client.workflow.getHandle(`${childId}/turn-1`).result()) as TurnWorkflowResult,
      );
      assert.deepEqual(
        childTurn.records.map((r) => [r.toolUseId, r.status]),
        [['toolu_child_slow_1', 'interrupted']],
      );

      // Interrupt with the default onInterrupt (wait), then a follow-up: the model sees the Agent call interrupted.
      const interrupted = await start({ prompt: 'delegate', tools: ['Read', 'Agent', 'AppendSlow'] });
      await waitFor('the second child tool to start', async () => (await lines(log)).length >= 2);
      await interruptSession(client, interrupted.workflowId);
      await waitFor(
        'the child to be cancelled',
        async () =>
          (await client.workflow.getHandle(`${interrupted.workflowId}/agent-toolu_agent_c`).describe()).status.name ===
          'CANCELLED',
        30_000,
      );
      await sendMessage(client, interrupted.workflowId, 'go on');
      await waitFor(
        'the follow-up request',
        async () =>
          fake
            .messageRequests()
            .some((r) => !systemOf(r).includes('on behalf') && JSON.stringify(r.messages).includes('go on')),
        30_000,
      );
      const followUp = fake
        .messageRequests()
        .find((r) => !systemOf(r).includes('on behalf') && JSON.stringify(r.messages).includes('go on'))!;
      const agentResult = followUp.messages
        .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
        .find((b) => (b as { tool_use_id?: string }).tool_use_id === 'toolu_agent_c') as
        { is_error?: boolean; content?: unknown } | undefined;
      assert.equal(agentResult?.is_error, true);
      assert.match(JSON.stringify(agentResult?.content), /interrupt/i);
      await interrupted.cancel();
    });
  },
);

test(
  "integration: a subagent waiting for an approval shows in the parent's live output with the command that answers it; approving the child completes both",
  { timeout: 120_000 },
  async () => {
    await withAgent({}, async ({ fake, start, workDir, client, env }) => {
      const target = join(workDir, 'out.txt');
      fake.script((req) => {
        const n = req.messages.length;
        if (systemOf(req).includes('on behalf of another agent')) {
          if (n === 1)
            return toolUseResponse([
              {
                id: 'toolu_child_write',
                name: 'Write',
                input: { file_path: target, content: 'written by the child\n' },
              },
            ]);
          return textResponse('child wrote it');
        }
        if (n === 1)
          return toolUseResponse([
            {
              id: 'toolu_agent_w',
              name: 'Agent',
              input: { run_in_background: false, description: 'write a file', prompt: 'write out.txt' },
            },
          ]);
        return textResponse('parent done');
      });
      const handle = await start({
        prompt: 'delegate a write',
        tools: ['Read', 'Write', 'Agent'],
        permissionMode: 'default',
      });
      const live: string[] = [];
      const following = followSession(client, handle.workflowId, { out: (l) => live.push(l), intervalMs: 200 });
      const childId = `${handle.workflowId}/agent-toolu_agent_w`;
      await waitFor(
        'the child approval in the parent output',
        async () => live.some((l) => l.includes(`durable-agent approve ${childId} toolu_child_write`)),
        60_000,
      );
      assert.ok(
        live.some((l) => /⏸ approval needed: Agent general-purpose: write a file › Write /.test(l)),
        live.join('\n'),
      );
      // `status` of the parent says so too.
      const st = await cli(['status', handle.workflowId, '--address', env.address]);
      assert.match(
        st.stdout,
        new RegExp(
          `pending   toolu_child_write  Agent general-purpose: write a file › Write .*\\(durable-agent approve ${childId.replace(/[/]/g, '\\/')} toolu_child_write\\)`,
        ),
        st.stdout + st.stderr,
      );
      await approveToolUse(client, childId, 'toolu_child_write');
      const outcome = await following;
      assert.equal(outcome.kind, 'ended');
      assert.equal((await handle.result()).status, 'completed');
      assert.equal(await readFile(target, 'utf8'), 'written by the child\n');
    });
  },
);

test("integration: a subagent started after a Skill with `model` runs on the skill's model, in the same turn (patch skill-model-subagent) and in a later one", async () => {
  await withAgent({}, async ({ fake, start }) => {
    const skill = {
      name: 'fast',
      description: 'Go fast',
      model: 'claude-skill-model',
      body: 'Go fast.\n',
      dir: '/nowhere/.claude/skills/fast',
      scope: 'project' as const,
      source: '/nowhere/.claude/skills/fast/SKILL.md',
    };
    let parent = 0;
    fake.script((req) => {
      if (systemOf(req).includes('on behalf of another agent')) return textResponse(`child on ${req.model}`);
      parent++;
      if (parent === 1)
        return toolUseResponse([
          { id: 'toolu_skill', name: 'Skill', input: { skill: 'fast' } },
          {
            id: 'toolu_same',
            name: 'Agent',
            input: { description: 'same turn', prompt: 'hi', run_in_background: false },
          },
        ]);
      if (parent === 2)
        return toolUseResponse([
          { id: 'toolu_later', name: 'Agent', input: { description: 'later', prompt: 'hi', run_in_background: false } },
        ]);
      return textResponse('done');
    });
    const handle = await start({ prompt: 'go', tools: ['Read', 'Skill', 'Agent'], skills: [skill] });
    const result = await handle.result();
    assert.equal(result.status, 'completed', result.endReason);
    const children = fake.messageRequests().filter((r) => systemOf(r).includes('on behalf of another agent'));
    assert.deepEqual(
      children.map((r) => r.model),
      ['claude-skill-model', 'claude-skill-model'],
    );
    const parents = fake.messageRequests().filter((r) => !systemOf(r).includes('on behalf of another agent'));
    assert.match(JSON.stringify(lastToolResults(parents[1]!)), /child on claude-skill-model/);
  });
});
