// integration: hooks configured in the session (the settings format) run around tool calls on
// the worker: a PreToolUse command hook blocks with exit 2, a PostToolUse hook adds context.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { lastToolResults, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';
import { buildAudit } from '../../src/audit';
import { sendMessage } from '../../src/temporal/client';

const EventType = temporal.api.enums.v1.EventType;
after(closeTestEnv);

test('integration: PreToolUse hook blocks a Bash call (exit 2); PostToolUse adds context; the hook sees the session and ids', async () => {
  await withAgent({}, async ({ fake, start, workDir, client }) => {
    const seen = join(workDir, 'hook-input.jsonl');
    const pre = join(workDir, 'pre.sh');
    await writeFile(
      pre,
      `#!/bin/sh\ninput=$(cat)\necho "$input" >> ${seen}\ncase "$input" in *'rm -rf'*) echo "no recursive deletes here" >&2; exit 2;; esac\nexit 0\n`,
    );
    await chmod(pre, 0o755);
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_h_rm', name: 'Bash', input: { command: 'rm -rf build' } },
        { id: 'toolu_h_ls', name: 'Bash', input: { command: 'echo hello' } },
      ]),
      textResponse('ok'),
    );
    const handle = await start({
      prompt: 'clean up',
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: pre, timeout: 10 }] }],
        PostToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'command',
                command: `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"remember to run the tests"}}'`,
              },
            ],
          },
        ],
      },
    });
    assert.equal((await handle.result()).status, 'completed');
    const [rm, echo] = lastToolResults(fake.messageRequests()[1]!);
    assert.equal(rm?.is_error, true);
    assert.match(JSON.stringify(rm?.content), /no recursive deletes here/);
    assert.notEqual(echo?.is_error, true);
    assert.match(JSON.stringify(echo?.content), /hello/);
    assert.match(JSON.stringify(echo?.content), /remember to run the tests/);
    const inputs = (await readFile(seen, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(inputs.length, 2);
    assert.equal(inputs[0]?.session_id, handle.workflowId);
    assert.equal(inputs[0]?.tool_use_id, 'toolu_h_rm');
    assert.equal(inputs[0]?.hook_event_name, 'PreToolUse');
    assert.equal(inputs[0]?.cwd, workDir);
    assert.deepEqual(inputs[1]?.tool_input, { command: 'echo hello' });
    // The audit trail says which hooks ran and how they ended.
    const audit = await buildAudit(client, handle.workflowId);
    const rmCall = audit.toolCalls.find((c) => c.toolUseId === 'toolu_h_rm');
    assert.deepEqual(
      rmCall?.hooks?.map((h) => [h.event, h.outcome, h.exitCode]),
      [['PreToolUse', 'blocking', 2]],
    );
    assert.match(rmCall?.hooks?.[0]?.reason ?? '', /no recursive deletes here/);
    const echoCall = audit.toolCalls.find((c) => c.toolUseId === 'toolu_h_ls');
    assert.deepEqual(
      echoCall?.hooks?.map((h) => [h.event, h.outcome]),
      [
        ['PreToolUse', 'success'],
        ['PostToolUse', 'success'],
      ],
    );
  });
});

test("integration: a PostToolUse hook's continue:false stops the session after the turn, saying why", async () => {
  await withAgent({}, async ({ fake, start }) => {
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_h_stop', name: 'Bash', input: { command: 'echo done' } }]),
      textResponse('never asked for'),
    );
    const handle = await start({
      prompt: 'run and stop',
      hooks: {
        PostToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: `echo '{"continue":false,"stopReason":"the build is green"}'` }],
          },
        ],
      },
    });
    const result = await handle.result();
    assert.equal(result.status, 'stopped');
    assert.match(result.endReason, /stopped by a hook .*: the build is green/);
    assert.equal(fake.messageRequests().length, 1, 'the model is not called again');
    assert.equal(fake.remaining(), 1);
  });
});

test('integration: a follow-up sent while a UserPromptSubmit hook runs is checked by the hook in turn and reaches the model (late-prompts)', async () => {
  await withAgent({}, async ({ fake, start, workDir, client }) => {
    const seen = join(workDir, 'prompts.jsonl');
    const hook = join(workDir, 'prompt-hook.sh');
    // Records each prompt it checks, then holds until the test has sent the follow-up (a gate, not a
    // 3 s sleep the send had to beat): the follow-up arrives while the hook runs.
    // Outside the project: with the gate in the session's directory, the follow-up's hook run did not
    // record its prompt (4 runs of 4; its activity ran and the model got both) — not what this test is about.
    const gate = join(await mkdtemp(join(tmpdir(), 'da-gate-')), 'follow-up-sent');
    await writeFile(hook, `#!/bin/sh\ncat >> ${seen}\necho >> ${seen}\nwhile [ ! -e ${gate} ]; do sleep 0.05; done\n`);
    await chmod(hook, 0o755);
    fake.enqueue(textResponse('both read'));
    const handle = await start({
      prompt: 'FIRST-PROMPT',
      hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: hook, timeout: 30 }] }] },
    });
    await waitFor(
      'the UserPromptSubmit hook to run',
      async () => (await readFile(seen, 'utf8').catch(() => '')).includes('FIRST-PROMPT'),
      60_000,
    );
    await sendMessage(client, handle.workflowId, 'SECOND-PROMPT');
    // The hook ends once the session has taken the message in (a workflow task completed after the
    // signal in its history), so that the follow-up arrives while the hook runs, on any machine.
    await waitFor(
      'the session to take the follow-up in',
      async () => {
        const events = (await handle.fetchHistory()).events ?? [];
        const signaled = events.map((e) => e.eventType).lastIndexOf(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED);
        return (
          signaled >= 0 &&
          events.slice(signaled).some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)
        );
      },
      60_000,
    );
    await writeFile(gate, '');
    const result = await handle.result();
    assert.equal(result.status, 'completed', result.endReason);
    const prompts = (await readFile(seen, 'utf8'))
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => (JSON.parse(l) as { prompt: string }).prompt);
    assert.deepEqual(prompts, ['FIRST-PROMPT', 'SECOND-PROMPT']);
    // One turn answers both: the follow-up was not lost.
    const requests = fake.messageRequests();
    assert.equal(requests.length, 1);
    const sent = JSON.stringify(requests[0]?.messages);
    assert.match(sent, /FIRST-PROMPT/);
    assert.match(sent, /SECOND-PROMPT/);
  });
});
