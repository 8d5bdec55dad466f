// unit: PreCompact hooks in the reference's format — matcher on the trigger, stdout adds
// instructions, exit code 2 / decision "block" blocks, failures are notices.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { normalizeHooksConfig, runPreCompactHooks } from '../../src/hooks';

const input = { session_id: 's', cwd: tmpdir(), trigger: 'auto' as const, custom_instructions: null };

test('unit: PreCompact command hooks — matcher on the trigger, stdout becomes instructions, exit 2 blocks, JSON additionalContext counts', async () => {
  const config = normalizeHooksConfig({
    PreCompact: [
      { matcher: 'auto', hooks: [{ type: 'command', command: 'cat >/dev/null; echo "Keep the list of files read."' }] },
      { matcher: 'manual', hooks: [{ type: 'command', command: 'echo never' }] },
      {
        hooks: [
          {
            type: 'command',
            command: `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreCompact","additionalContext":"Mention the failing test."}}'`,
          },
        ],
      },
    ],
  });
  const r = await runPreCompactHooks(input, { config, projectDir: tmpdir() });
  assert.deepEqual(r.instructions, ['Keep the list of files read.', 'Mention the failing test.']);
  assert.equal(r.block, undefined);
  assert.equal(r.runs.length, 2);

  const blocking = normalizeHooksConfig({
    PreCompact: [
      {
        hooks: [
          { type: 'command', command: 'echo "not now: mid-migration" >&2; exit 2' },
          { type: 'command', command: 'exit 1' },
        ],
      },
    ],
  });
  const b = await runPreCompactHooks(input, { config: blocking, projectDir: tmpdir() });
  assert.deepEqual(b.block?.reason, 'not now: mid-migration');
  assert.equal(b.notices.length, 1, 'exit 1 is a non-blocking error');
});

test('unit: PreCompact function hooks see the input; decision "block" blocks', async () => {
  const seen: unknown[] = [];
  const config = {
    PreCompact: [
      {
        hooks: [
          {
            type: 'function' as const,
            fn: (i: unknown) => {
              seen.push(i);
              return { decision: 'block' as const, reason: 'checkpoint first' };
            },
          },
        ],
      },
    ],
  };
  const r = await runPreCompactHooks({ ...input, trigger: 'manual' }, { config, projectDir: tmpdir() });
  assert.equal(r.block?.reason, 'checkpoint first');
  assert.deepEqual(seen, [{ ...input, trigger: 'manual', hook_event_name: 'PreCompact' }]);
});
