// integration: context modifiers of a concurrent batch are applied in the original block order,
// whatever order the calls finish in (a custom tool on the real dev server).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { buildTool } from '../../src/tools/Tool';
import { BUILTIN_TOOL_NAMES, sessionStatus } from '../../src/client';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';

after(closeTestEnv);

const finished: string[] = [];
const AddDir = buildTool({
  name: 'AddDir',
  inputSchema: z.strictObject({ dir: z.string(), delayMs: z.number().int().min(0) }),
  prompt: () => 'Adds a working directory after a delay (test tool).',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  async call(input) {
    await new Promise((r) => setTimeout(r, input.delayMs));
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
        { id: 'toolu_m1', name: 'AddDir', input: { dir: '/first', delayMs: 1500 } },
        { id: 'toolu_m2', name: 'AddDir', input: { dir: '/second', delayMs: 700 } },
        { id: 'toolu_m3', name: 'AddDir', input: { dir: '/third', delayMs: 10 } },
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
