// integration: hooks as a Claude Code user writes them, on the real dev server — a PreToolUse
// hook with an `if` rule, a UserPromptSubmit hook that reads the prompt (with a CLAUDE.md in the
// session), a Stop hook that blocks once and reads the transcript file, systemMessage notices
// printed by `run`'s follower.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { followSession } from '../../src/cli/follow';
import { memoryReminder, sha256 } from '../../src/claudeMd/claudeMd';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';

after(closeTestEnv);

test('integration: if-rule, prompt as typed, Stop feedback once, transcript lines and notices as in Claude Code', async () => {
  await withAgent({}, async ({ fake, start, workDir, client }) => {
    const log = (name: string) => join(workDir, `${name}.jsonl`);
    const capture = (name: string) => `cat >> '${log(name)}'; echo >> '${log(name)}'`;
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_git', name: 'Bash', input: { command: 'git push --force' } },
        { id: 'toolu_echo', name: 'Bash', input: { command: 'echo fine' } },
      ]),
      textResponse('first answer'),
      textResponse('second answer'),
    );
    const memoryText = memoryReminder([
      { path: join(workDir, 'CLAUDE.md'), type: 'project', content: 'Never push with --force.' },
    ]);
    const handle = await start({
      prompt: 'ship it',
      memory: { files: [join(workDir, 'CLAUDE.md')], text: memoryText, sha256: sha256(memoryText) },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'command',
                if: 'Bash(git push:*)',
                command: `${capture('pre-git')}; echo 'no force pushes' >&2; exit 2`,
              },
            ],
          },
          {
            matcher: 'B.s',
            hooks: [
              { type: 'command', command: `${capture('pre-all')}; echo '{"systemMessage":"PRE-NOTICE checked"}'` },
            ],
          },
        ],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: capture('prompt') }] }],
        Stop: [
          {
            hooks: [
              {
                type: 'command',
                command: `f=$(mktemp); cat > "$f"; (cat "$f"; echo) >> '${log('stop')}'; grep -q '"stop_hook_active":false' "$f" && echo '{"decision":"block","reason":"run the tests","systemMessage":"STOP-NOTICE kept going"}'; rm -f "$f"; true`,
              },
            ],
          },
        ],
      },
    } as never);
    const printed: string[] = [];
    const outcome = await followSession(client, handle.workflowId, { out: (l) => printed.push(l), intervalMs: 200 });
    assert.equal(outcome.kind === 'ended' && outcome.status, 'completed');

    const lines = async (name: string) =>
      (await readFile(log(name), 'utf8'))
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    // `if`: only the git call ran the guard, and it was blocked; the regex matcher `B.s` saw both.
    assert.deepEqual(
      (await lines('pre-git')).map((i) => i.tool_use_id),
      ['toolu_git'],
    );
    assert.deepEqual((await lines('pre-all')).map((i) => i.tool_use_id).sort(), ['toolu_echo', 'toolu_git']);
    const second = fake.messageRequests()[1]!;
    assert.match(JSON.stringify(second.messages), /no force pushes/);
    // The prompt as typed, not the CLAUDE.md reminder in front of it.
    assert.deepEqual(
      (await lines('prompt')).map((i) => i.prompt),
      ['ship it'],
    );
    // Stop blocked once: the reference's wording reached the model, then stop_hook_active was true.
    const stops = await lines('stop');
    assert.deepEqual(
      stops.map((s) => [s.stop_hook_active, s.last_assistant_message]),
      [
        [false, 'first answer'],
        [true, 'second answer'],
      ],
    );
    assert.ok(
      fake.messageRequests().some((r) => /Stop hook feedback:\\nrun the tests/.test(JSON.stringify(r.messages))),
    );
    // The transcript file at the second Stop: prompt line as typed, feedback as isMeta, the last assistant message complete.
    const transcript = (await readFile(String(stops[1]!.transcript_path), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; isMeta?: boolean; message?: { content: unknown } });
    assert.equal(transcript[0]!.type, 'user');
    assert.equal(transcript[0]!.message?.content, 'ship it');
    assert.ok(
      transcript.some(
        (l) => l.type === 'user' && l.isMeta === true && String(l.message?.content).startsWith('Stop hook feedback:'),
      ),
    );
    const last = transcript[transcript.length - 1]!;
    assert.equal(last.type, 'assistant');
    assert.deepEqual(last.message?.content, [{ type: 'text', text: 'second answer' }]);
    // `run` printed the hooks' messages for the user: the tool call's and the session's.
    assert.ok(
      printed.some((l) => l.includes('⚑') && l.includes('PRE-NOTICE checked')),
      printed.join('\n'),
    );
    assert.ok(
      printed.some((l) => l.includes('⚑') && l.includes('STOP-NOTICE kept going')),
      printed.join('\n'),
    );
  });
});
