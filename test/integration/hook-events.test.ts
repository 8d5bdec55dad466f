// integration: every session-level hook event on the real dev server, with real command hook
// scripts that capture their stdin: the reference's input fields, transcript_path (a JSONL file of
// the conversation so far), Bash's tool_response.stdout, a Stop hook blocking once (the session goes
// on), UserPromptSubmit context reaching the model, Notification on an approval wait, and an
// unknown event name failing at load.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { denyToolUse, sessionStatus } from '../../src/temporal/client';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';

after(closeTestEnv);

type Captured = Record<string, unknown>;

async function captureHook(dir: string, name: string, body = 'exit 0'): Promise<{ path: string; log: string }> {
  const path = join(dir, `${name}.sh`);
  const log = join(dir, 'captured.jsonl');
  await writeFile(path, `#!/bin/bash\ninput=$(cat)\nprintf '%s\\n' "$input" >> ${log}\n${body}\n`);
  await chmod(path, 0o755);
  return { path, log };
}

async function readCaptured(log: string): Promise<Captured[]> {
  const text = await readFile(log, 'utf8').catch(() => '');
  return text.trim()
    ? text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Captured)
    : [];
}

function requestText(req: unknown): string {
  return JSON.stringify(req);
}

test('integration: every event fires with the reference fields; transcript_path is JSONL; Bash stdout; Stop blocks once; UserPromptSubmit context reaches the model', async () => {
  await withAgent({}, async ({ fake, start, workDir }) => {
    const cmd = (p: string) => [{ type: 'command' as const, command: p, timeout: 30 }];
    const start_ = await captureHook(workDir, 'start');
    const prompt = await captureHook(workDir, 'prompt', 'echo "the deploy window closes at 17:00"');
    const post = await captureHook(workDir, 'post');
    // Blocks the first stop only: the reference's loop guard is stop_hook_active.
    const stop = await captureHook(
      workDir,
      'stop',
      'case "$input" in *\'"stop_hook_active":true\'*) exit 0;; esac\necho "also update the changelog" >&2\nexit 2',
    );
    const end = await captureHook(workDir, 'end');
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_ev_bash', name: 'Bash', input: { command: 'echo hello-from-bash' } }]),
      textResponse('first answer'),
      textResponse('changelog updated'),
    );
    const handle = await start({
      prompt: 'say hello',
      permissionMode: 'bypassPermissions',
      hooks: {
        SessionStart: [{ matcher: 'startup', hooks: cmd(start_.path) }],
        UserPromptSubmit: [{ hooks: cmd(prompt.path) }],
        PostToolUse: [{ matcher: 'Bash', hooks: cmd(post.path) }],
        Stop: [{ hooks: cmd(stop.path) }],
        SessionEnd: [{ hooks: cmd(end.path) }],
      },
    });
    const result = await handle.result();
    assert.equal(result.status, 'completed', result.endReason);
    assert.equal(result.lastText, 'changelog updated');
    const seen = await readCaptured(start_.log);
    assert.deepEqual(
      seen.map((s) => s.hook_event_name),
      ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'Stop', 'SessionEnd'],
    );
    for (const s of seen) {
      assert.equal(s.session_id, handle.workflowId);
      assert.equal(s.cwd, workDir);
      assert.equal(s.permission_mode, 'bypassPermissions');
      assert.equal(typeof s.transcript_path, 'string');
    }
    const [ss, ups, ptu, stop1, stop2, se] = seen;
    assert.equal(ss?.source, 'startup');
    assert.equal(ups?.prompt, 'say hello');
    assert.equal(ptu?.tool_name, 'Bash');
    assert.equal(ptu?.tool_use_id, 'toolu_ev_bash');
    const resp = ptu?.tool_response as Record<string, unknown>;
    assert.match(String(resp.stdout), /hello-from-bash/);
    assert.equal(resp.stderr, '');
    assert.equal(resp.interrupted, false);
    assert.equal(resp.isImage, false);
    assert.equal(stop1?.stop_hook_active, false);
    assert.equal(stop2?.stop_hook_active, true);
    assert.equal(se?.reason, 'other');
    // transcript_path: the conversation so far, one reference-format object per line.
    const lines = (await readFile(String(se?.transcript_path), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.ok(lines.length >= 5, `transcript has ${lines.length} lines`);
    assert.equal(lines[0]?.type, 'user');
    assert.equal(lines[0]?.parentUuid, null);
    assert.equal(lines[0]?.sessionId, handle.workflowId);
    assert.equal(lines[1]?.parentUuid, lines[0]?.uuid);
    for (const l of lines) {
      assert.ok(['user', 'assistant', 'attachment'].includes(String(l.type)));
      assert.ok(typeof l.uuid === 'string' && typeof l.timestamp === 'string' && l.cwd === workDir);
      // A hook's added context is an attachment line, as the reference writes it.
      if (l.type === 'attachment') assert.equal((l.attachment as { type: string }).type, 'hook_additional_context');
      else assert.equal((l.message as { role: string }).role, l.type);
    }
    assert.ok(
      lines.some((l) => l.type === 'attachment'),
      'the UserPromptSubmit context is an attachment line',
    );
    assert.match(JSON.stringify(lines), /say hello/);
    assert.match(JSON.stringify(lines), /hello-from-bash/);
    assert.match(JSON.stringify(lines), /first answer/);
    // UserPromptSubmit's stdout is context for the model; the blocking Stop reason is the next message.
    const reqs = fake.messageRequests();
    assert.equal(reqs.length, 3);
    assert.match(requestText(reqs[0]), /the deploy window closes at 17:00/);
    assert.match(requestText(reqs[2]), /also update the changelog/);
  });
});

test('integration: a Notification hook fires when a call waits for approval', async () => {
  await withAgent({}, async ({ fake, start, workDir, client }) => {
    const note = await captureHook(workDir, 'note');
    const target = join(workDir, 'x.txt');
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_ev_write', name: 'Write', input: { file_path: target, content: 'x\n' } }]),
      textResponse('ok'),
    );
    const handle = await start({
      prompt: 'write x',
      permissionMode: 'default',
      hooks: { Notification: [{ hooks: [{ type: 'command', command: note.path, timeout: 30 }] }] },
    });
    const [n] = await waitFor('the Notification hook', async () => {
      const c = await readCaptured(note.log);
      return c.length > 0 ? c : undefined;
    });
    assert.equal(n?.hook_event_name, 'Notification');
    assert.equal(n?.notification_type, 'permission_prompt');
    assert.match(String(n?.message), /permission to use Write/);
    assert.equal(n?.session_id, handle.workflowId);
    await waitFor(
      'the approval request',
      async () => (await sessionStatus(client, handle.workflowId)).pendingApprovals.length === 1,
    );
    await denyToolUse(client, handle.workflowId, 'toolu_ev_write', 'test');
    assert.equal((await handle.result()).status, 'completed');
  });
});

test('integration: an unknown hook event name is refused at start, naming the key; no session starts', async () => {
  await withAgent({}, async ({ start }) => {
    // Validation runs at the edge (src/sessionInput.ts): startSession throws and nothing is started.
    await assert.rejects(
      start({ prompt: 'x', hooks: { PreToolUze: [{ hooks: [{ type: 'command', command: 'true' }] }] } as never }),
      (err: Error) =>
        err.name === 'InvalidSessionInputError' && /hooks\.PreToolUze is not a hook event/.test(err.message),
    );
  });
});
