// unit: the pure parts of background and isolated agents (issue 19): the task id (the reference's
// shape, derived from the call), the launched result (the reference's first sentence and agentId
// line), the worktree lines of a foreground result, the `<worktree>` element of the notification
// (captured from 2.1.328: after `<usage>`, only when the worktree was kept), and the status line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentLaunchedText, agentTaskId, agentWorktreeName, subagentUsageNote } from '../../src/core/subagents';
import { agentNotification } from '../../src/tasks/core/taskNotifications';
import { AgentTool } from '../../src/tools/agent';
import { autonomyLines } from '../../src/cli/autonomyText';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { startFakeAnthropic, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { runLocalSession } from '../../src/inprocess/runSession';

test('unit: an agent task id is a + 16 hex digits, the same for the same call, different for another', () => {
  const id = agentTaskId('sess-1', 'toolu_a');
  assert.match(id, /^a[0-9a-f]{16}$/);
  assert.equal(agentTaskId('sess-1', 'toolu_a'), id);
  assert.notEqual(agentTaskId('sess-1', 'toolu_b'), id);
  assert.notEqual(agentTaskId('sess-2', 'toolu_a'), id);
  assert.equal(agentWorktreeName(id), `agent-${id}`);
});

test('unit: the launched result starts with the reference sentence and agentId line; the Agent tool maps it, not an error', () => {
  const text = agentLaunchedText('a0123456789abcdef', 's/agent-toolu_x');
  assert.match(text, /^Async agent launched successfully\.\nagentId: a0123456789abcdef \(/);
  assert.match(text, /TaskStop/);
  const block = AgentTool.mapToolResultToToolResultBlockParam(
    {
      agentType: 'general-purpose',
      sessionId: 's/agent-toolu_x',
      status: 'launched',
      endReason: 'running in the background',
      text: '',
      turns: 0,
      launched: { taskId: 'a0123456789abcdef' },
    },
    'toolu_x',
  );
  assert.equal(block.is_error, undefined);
  assert.deepEqual(block.content, [{ type: 'text', text }]);
});

test('unit: a kept worktree: its lines before <usage> in a foreground result, <worktree> after <usage> in a notification', () => {
  const base = {
    agentType: 'general-purpose',
    sessionId: 's/agent-toolu_x',
    status: 'completed',
    endReason: 'completed',
    text: 'done',
    turns: 1,
    toolUses: 1,
    totalTokens: 10,
    durationMs: 5,
  };
  assert.equal(subagentUsageNote(base), '<usage>subagent_tokens: 10\ntool_uses: 1\nduration_ms: 5</usage>');
  assert.equal(
    subagentUsageNote({ ...base, worktree: { path: '/r/.claude/worktrees/agent-a1', branch: 'worktree-agent-a1' } }),
    'worktreePath: /r/.claude/worktrees/agent-a1\nworktreeBranch: worktree-agent-a1\n<usage>subagent_tokens: 10\ntool_uses: 1\nduration_ms: 5</usage>',
  );
  const task = { id: 'a1', description: 'do sub', toolUseId: 'toolu_x' };
  const end = { state: 'completed' as const, result: 'ok', totalTokens: 3, toolUses: 1, durationMs: 2 };
  assert.ok(!agentNotification(task, end).includes('<worktree>'));
  assert.match(
    agentNotification(task, { ...end, worktree: { path: '/r/w&1', branch: 'worktree-agent-a1' } }),
    /<\/usage>\n<worktree><worktreePath>\/r\/w&amp;1<\/worktreePath><worktreeBranch>worktree-agent-a1<\/worktreeBranch><\/worktree>\n<\/task-notification>/,
  );
});

test('unit: status names a background agent task, its child session and worktree', () => {
  const lines = autonomyLines({
    autonomy: {
      crons: [],
      tasks: [
        {
          id: 'a1',
          kind: 'local_agent',
          toolUseId: 'toolu_x',
          description: 'check things',
          startedAt: Date.UTC(2026, 11, 2, 10),
          timeoutMs: 0,
          state: 'running',
          agent: {
            sessionId: 's/agent-toolu_x',
            worktree: { path: '/r/wt', branch: 'b', base: 'c', repoRoot: '/r', allowWrite: [], denyWrite: [] },
          },
        },
      ],
    },
  });
  assert.deepEqual(lines, [
    'task a1 [running] agent check things — started 2026-12-02T10:00:00Z; agent session s/agent-toolu_x, worktree /r/wt',
  ]);
});

test('unit: in process, an Agent call runs in the foreground (its report is the result) and isolation "worktree" is refused, never run unisolated', async () => {
  const fake = await startFakeAnthropic();
  try {
    const work = await mkdtemp(join(tmpdir(), 'bga-local-'));
    const store = await mkdtemp(join(tmpdir(), 'bga-local-store-'));
    let childRuns = 0;
    fake.script((req) => {
      if (JSON.stringify(req.messages[0]?.content ?? '').includes('SUBTASK')) {
        childRuns++;
        return textResponse('child report');
      }
      if (req.messages.length === 1)
        return toolUseResponse([
          {
            id: 'toolu_fg',
            name: 'Agent',
            input: { description: 'plain', prompt: 'SUBTASK plain', run_in_background: false },
          },
          {
            id: 'toolu_iso',
            name: 'Agent',
            input: { description: 'isolated', prompt: 'SUBTASK isolated', isolation: 'worktree' },
          },
        ]);
      return textResponse('done');
    });
    const result = await runLocalSession(
      {
        prompt: 'delegate',
        cwd: work,
        tools: ['Read', 'Agent'],
        permissionMode: 'default',
        model: { model: 'claude-test', maxTokens: 256 },
      },
      { storeDir: store, anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
    );
    assert.equal(result.status, 'completed', result.endReason);
    const fg = result.records.find((r) => r.toolUseId === 'toolu_fg')!;
    assert.equal(fg.result.is_error, undefined);
    assert.match(JSON.stringify(fg.result.content), /child report/);
    const iso = result.records.find((r) => r.toolUseId === 'toolu_iso')!;
    assert.equal(iso.result.is_error, true);
    assert.match(JSON.stringify(iso.result.content), /isolation \\"worktree\\" needs a durable session/);
    assert.equal(childRuns, 1, 'only the plain agent ran');
  } finally {
    await fake.close();
  }
});
