// A bench-only tool: sleeps `ms`, concurrency-safe and read-only (a stand-in for a slow Read or
// Grep whose duration the bench controls). Registered only by the bench's workers.
import { z } from 'zod';
import { buildTool } from '../src/toolProtocol/Tool';

export const SLEEP_TOOL_NAME = 'BenchSleep';

export const SleepTool = buildTool({
  name: SLEEP_TOOL_NAME,
  inputSchema: z.strictObject({ ms: z.number().int().min(0).max(60_000) }),
  prompt: () => 'Waits the given number of milliseconds (benchmark tool).',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  summary: (input) => `BenchSleep ${input.ms} ms`,
  async call(input, ctx) {
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, input.ms);
      ctx.abortSignal?.addEventListener('abort', () => {
        clearTimeout(t);
        resolve();
      });
    });
    return { data: input.ms };
  },
  mapToolResultToToolResultBlockParam: (ms, id) => ({
    type: 'tool_result',
    tool_use_id: id,
    content: `slept ${ms} ms`,
  }),
});
