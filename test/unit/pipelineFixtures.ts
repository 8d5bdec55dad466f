// Small fake tools and environments for the pipeline/hooks tests (not a test file itself).
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { initialContext } from '../../src/core/context';
import type { ToolUseBlock } from '../../src/core/apiMessages';
import { buildTool, type AnyTool, type ToolUseContext } from '../../src/toolProtocol/Tool';
import type { PermissionMode, PermissionRules } from '../../src/toolProtocol/permissionTypes';
import { createToolPool } from '../../src/permissions/toolPool';
import type { PipelineEnv } from '../../src/toolCall/pipeline/types';

export const calls: Array<{ tool: string; input: unknown; ctx: ToolUseContext }> = [];

const textResult = (d: unknown, id: string) => ({ type: 'tool_result' as const, tool_use_id: id, content: String(d) });

export const Echo = buildTool({
  name: 'Echo',
  aliases: ['Say'],
  inputSchema: z.strictObject({ text: z.string(), times: z.number().int().min(1).default(1) }),
  prompt: () => 'Echoes text.',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  summary: (i) => `Echo ${i.text}`,
  async validateInput(i) {
    return i.text === 'invalid' ? { result: false, message: 'Echo refuses the text "invalid".' } : { result: true };
  },
  async call(i, ctx) {
    calls.push({ tool: 'Echo', input: i, ctx });
    return { data: i.text.repeat(i.times) };
  },
  mapToolResultToToolResultBlockParam: textResult,
});

export const WriteFile = buildTool({
  name: 'WriteFile',
  inputSchema: z.strictObject({ file_path: z.string(), content: z.string() }),
  prompt: () => 'Writes a file.',
  getPath: (i) => i.file_path,
  async call(i, ctx) {
    calls.push({ tool: 'WriteFile', input: i, ctx });
    const p = path.resolve(ctx.agent.cwd, i.file_path);
    await fs.writeFile(p, i.content);
    return {
      data: { path: p, bytes: i.content.length },
      contextModifiers: [{ type: 'fileWritten', path: p, mtimeMs: 1 }],
    };
  },
  mapToolResultToToolResultBlockParam: (d: { path: string; bytes: number }, id) => ({
    type: 'tool_result',
    tool_use_id: id,
    content: `Wrote ${d.bytes} bytes to ${d.path}`,
  }),
});

export const Big = buildTool({
  name: 'Big',
  inputSchema: z.object({ size: z.number().int().nonnegative() }),
  prompt: () => 'Big output.',
  isReadOnly: () => true,
  maxResultSizeChars: 20_000,
  async call(i) {
    let s = '';
    for (let k = 0; s.length < i.size; k++) s += `line ${k} ${'x'.repeat(60)}\n`;
    return { data: s.slice(0, i.size) };
  },
  mapToolResultToToolResultBlockParam: textResult,
});

export const Slow = buildTool({
  name: 'Slow',
  inputSchema: z.object({ ms: z.number() }),
  prompt: () => 'Slow.',
  isReadOnly: () => true,
  async call(i, ctx, onProgress) {
    calls.push({ tool: 'Slow', input: i, ctx });
    onProgress({ stage: 'started' });
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(resolve, i.ms);
      ctx.abortSignal.addEventListener(
        'abort',
        () => {
          clearTimeout(t);
          reject(new Error('aborted'));
        },
        { once: true },
      );
    });
    onProgress({ stage: 'done' });
    return { data: `slept ${i.ms}` };
  },
  mapToolResultToToolResultBlockParam: textResult,
});

export const Thrower = buildTool({
  name: 'Thrower',
  inputSchema: z.object({}),
  prompt: () => 'Throws.',
  isReadOnly: () => true,
  async call() {
    throw new Error('disk on fire');
  },
  mapToolResultToToolResultBlockParam: textResult,
});

export const FAKE_TOOLS: AnyTool[] = [Echo, WriteFile, Big, Slow, Thrower];

export async function tempDir(prefix = 'pipe-'): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
}

export function makeEnv(
  cwd: string,
  opts: Partial<PipelineEnv> & { mode?: PermissionMode; rules?: Partial<PermissionRules>; tools?: AnyTool[] } = {},
): PipelineEnv {
  const { mode = 'default', rules = {}, tools = FAKE_TOOLS, ...rest } = opts;
  const permission = { mode, rules: { allow: [], ask: [], deny: [], ...rules }, workingDirectories: [cwd] };
  return {
    pool: createToolPool(tools, permission),
    sessionId: 'sess-1',
    agent: initialContext(cwd),
    permission,
    ...rest,
  };
}

let n = 0;
export function use(name: string, input: unknown, id?: string): ToolUseBlock {
  return { type: 'tool_use', id: id ?? `toolu_${(++n).toString().padStart(4, '0')}`, name, input };
}

/** Writes an executable shell script and returns the command that runs it. */
export async function script(dir: string, name: string, body: string): Promise<string> {
  const p = path.join(dir, name);
  await fs.writeFile(p, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return p;
}
