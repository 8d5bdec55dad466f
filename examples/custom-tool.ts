// A custom tool end to end: define it with buildTool, give it to a worker, start a session that
// may use it. Run with a dev server up (`durable-agent dev`):  npx tsx examples/custom-tool.ts
import { z } from 'zod';
import { NativeConnection } from '@temporalio/worker';
import { buildTool, connectClient, createAgentWorker, startSession, BUILTIN_TOOL_NAMES } from '../src';

// 1. The tool: one zod schema is both the API input_schema and the runtime validator.
export const WordCount = buildTool({
  name: 'WordCount',
  inputSchema: z.strictObject({ text: z.string().min(1).describe('The text to count words in') }),
  maxResultSizeChars: 1_000,
  prompt: () => 'Counts the words in a text.',
  summary: (input) => `WordCount (${input.text.length} chars)`,
  isReadOnly: () => true, // pure: allowed in default mode, safe to re-run after a lost worker
  isConcurrencySafe: () => true, // may run in a parallel batch
  async call(input) {
    return { data: { words: input.text.trim().split(/\s+/).length } };
  },
  mapToolResultToToolResultBlockParam: (data, toolUseId) => ({
    type: 'tool_result',
    tool_use_id: toolUseId,
    content: `${data.words} words`,
  }),
});

async function main(): Promise<void> {
  // 2. A worker that knows the tool (sessions pick tools by name from the worker's registry).
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS ?? 'localhost:7233' });
  const worker = await createAgentWorker({ connection, tools: [WordCount], taskQueue: 'custom-tool-example' });
  await worker.runUntil(async () => {
    // 3. A session whose pool includes it.
    const { client } = await connectClient();
    const handle = await startSession(client, {
      prompt: 'How many words are in "the quick brown fox"? Use the WordCount tool.',
      tools: [...BUILTIN_TOOL_NAMES, 'WordCount'],
      taskQueue: 'custom-tool-example',
    });
    console.log(await handle.result());
  });
}

if (require.main === module) void main();
