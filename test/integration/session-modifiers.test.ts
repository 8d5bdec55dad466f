// integration: context modifiers of a concurrent batch are applied in the original block order,
// whatever order the calls finish in (a custom tool on the real dev server).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { buildTool } from '../../src/toolProtocol/Tool';
import { BUILTIN_TOOL_NAMES, sessionStatus } from '../../src/temporal/client';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';

after(closeTestEnv);

const finished: string[] = [];
const AddDir = buildTool({
  name: 'AddDir',
  inputSchema: z.strictObject({ dir: z.string(), after: z.string().optional() }),
  prompt: () => 'Adds a working directory once the call that adds `after` finished (test tool).',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  async call(input, ctx) {
    // An order of ends no machine load can change (delays raced each other: activities may start
    // far apart on a loaded worker).
    const after = input.after;
    if (after !== undefined)
      await waitFor(
        `${input.dir} to wait for ${after}`,
        async () => ctx.abortSignal.aborted || finished.includes(after),
        60_000,
        20,
      );
    finished.push(input.dir);
    return {
      data: input.dir,
      contextModifiers: [
        { type: 'addDirectory', path: input.dir },
        { type: 'setCwd', cwd: input.dir },
      ],
    };
  },
  mapToolResultToToolResultBlockParam: (d, id) => ({ type: 'tool_result', tool_use_id: id, content: `added ${d}` }),
});

test('integration: a batch whose calls finish in reverse order yields the context of the original order', async () => {
  await withAgent({ worker: { tools: [AddDir] } }, async ({ fake, start, client }) => {
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_m1', name: 'AddDir', input: { dir: '/first', after: '/second' } },
        { id: 'toolu_m2', name: 'AddDir', input: { dir: '/second', after: '/third' } },
        { id: 'toolu_m3', name: 'AddDir', input: { dir: '/third' } },
      ]),
      textResponse('ok'),
    );
    const handle = await start({ prompt: 'add dirs', tools: [...BUILTIN_TOOL_NAMES, 'AddDir'] });
    const result = await handle.result();
    assert.equal(result.status, 'completed');
    assert.deepEqual(finished, ['/third', '/second', '/first'], 'the calls finished in reverse order');
    const status = await sessionStatus(client, handle.workflowId);
    assert.deepEqual(status.context.additionalDirectories, ['/first', '/second', '/third']);
    assert.equal(status.context.cwd, '/third', 'the last block in order wins, not the last to finish');
  });
});
