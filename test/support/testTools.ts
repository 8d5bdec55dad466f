// Tools for tests that need an observable side effect: each call appends a line to a file
// (a side-effect counter that survives worker crashes), then optionally takes its time.
import { appendFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { buildTool, type AnyTool } from '../../src/toolProtocol/Tool';

const appendSlowInput = z.strictObject({
  file: z.string().min(1).describe('Absolute path of the file to append to.'),
  text: z.string().describe('The line to append (a newline is added).'),
  delayMs: z.number().int().min(0).max(600_000).optional().describe('How long to wait after appending, in ms.'),
  idempotent: z.boolean().optional().describe('Whether the call may be re-run after a lost worker.'),
});

export type AppendSlowInput = z.infer<typeof appendSlowInput>;
export interface AppendSlowOutput {
  file: string;
  text: string;
  waitedMs: number;
}

/** Waits `ms`, rejecting at once when `signal` aborts. */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return sleep(ms, undefined, { signal });
}

/** Appends `text\n` to `file` at once (the side effect), then waits `delayMs` (abortable). */
export const AppendSlowTool = buildTool<AppendSlowInput, AppendSlowOutput>({
  name: 'AppendSlow',
  inputSchema: appendSlowInput,
  prompt: () => 'Appends a line to a file, then waits. Test tool.',
  summary: (i) => `AppendSlow ${i.file} "${i.text}"${i.delayMs ? ` (+${i.delayMs} ms)` : ''}`,
  isIdempotent: (i) => i.idempotent === true,
  async call(input, ctx) {
    await appendFile(input.file, `${input.text}\n`, 'utf8');
    const waitedMs = input.delayMs ?? 0;
    if (waitedMs > 0) await wait(waitedMs, ctx.abortSignal);
    return { data: { file: input.file, text: input.text, waitedMs } };
  },
  mapToolResultToToolResultBlockParam(data, toolUseId) {
    return {
      type: 'tool_result',
      tool_use_id: toolUseId,
      content: `Appended "${data.text}" to ${data.file} (waited ${data.waitedMs} ms).`,
    };
  },
});

const countSafeInput = z.strictObject({
  file: z.string().min(1).describe('Absolute path of the counter file.'),
  text: z.string().describe('The line to append (a newline is added).'),
  delayMs: z.number().int().min(0).max(600_000).optional().describe('How long to wait after appending, in ms.'),
});

/**
 * A concurrency-safe tool with an observable side effect (a line per call, written at once):
 * streaming tool execution may start it early, and a test can count how often it really ran.
 */
export const CountSafeTool = buildTool<z.infer<typeof countSafeInput>, AppendSlowOutput>({
  name: 'CountSafe',
  inputSchema: countSafeInput,
  prompt: () => 'Appends a line to a counter file, then waits. Concurrency-safe. Test tool.',
  summary: (i) => `CountSafe ${i.file} "${i.text}"`,
  isConcurrencySafe: () => true,
  async call(input, ctx) {
    await appendFile(input.file, `${input.text}\n`, 'utf8');
    const waitedMs = input.delayMs ?? 0;
    if (waitedMs > 0) await wait(waitedMs, ctx.abortSignal);
    return { data: { file: input.file, text: input.text, waitedMs } };
  },
  mapToolResultToToolResultBlockParam(data, toolUseId) {
    return { type: 'tool_result', tool_use_id: toolUseId, content: `Counted "${data.text}" in ${data.file}.` };
  },
});

export const TEST_TOOLS: AnyTool[] = [AppendSlowTool, CountSafeTool];
