// Test harness for the built-in tools: real temp directories, a hand-built ToolUseContext, and a
// session that runs schema -> validateInput -> call -> map and applies context modifiers.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyContextModifiers, initialContext, type AgentContext } from '../../src/core/context';
import type { ToolResultBlockParam } from '../../src/core/apiMessages';
import { toolResultText } from '../../src/core/apiMessages';
import type { AnyTool, ToolProgress, ToolUseContext } from '../../src/toolProtocol/Tool';

export async function makeTmpDir(prefix = 'tools-test-'): Promise<string> {
  // realpath: os.tmpdir() may be a symlink (macOS); tools report real paths.
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
}

export async function removeDir(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true });
}

/** Writes files (relative path -> content), creating directories; optional mtimes in seconds. */
export async function writeTree(
  root: string,
  files: Record<string, string>,
  mtimes: Record<string, number> = {},
): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    await fs.mkdir(path.dirname(abs), { recursive: true });
    await fs.writeFile(abs, content);
  }
  for (const [rel, secs] of Object.entries(mtimes)) await fs.utimes(path.join(root, rel), secs, secs);
}

let counter = 0;

export function makeContext(
  agent: AgentContext,
  signal: AbortSignal = new AbortController().signal,
  workingDirectories: string[] = [agent.cwd, ...agent.additionalDirectories],
): ToolUseContext {
  counter++;
  return {
    sessionId: 'test-session',
    toolUseId: `toolu_${counter}`,
    idempotencyKey: `test-session/toolu_${counter}`,
    agent,
    permission: {
      mode: 'bypassPermissions',
      rules: { allow: [], ask: [], deny: [] },
      workingDirectories,
    },
    abortSignal: signal,
  };
}

export interface RunOutcome {
  /** Schema or validateInput failure message (call not run). */
  invalid?: string;
  /** call() threw. */
  thrown?: Error;
  data?: any;
  block?: ToolResultBlockParam;
  text: string;
  isError: boolean;
  progress: ToolProgress[];
}

export class ToolSession {
  agent: AgentContext;
  /** The session's working directories: fixed at start, whatever `cd` does later. */
  readonly workingDirectories: string[];
  constructor(cwd: string) {
    this.agent = initialContext(cwd);
    this.workingDirectories = [cwd];
  }

  async run(
    tool: AnyTool,
    rawInput: unknown,
    opts: { signal?: AbortSignal; backgroundTasks?: boolean } = {},
  ): Promise<RunOutcome> {
    const progress: ToolProgress[] = [];
    const parsed = tool.inputSchema.safeParse(rawInput);
    if (!parsed.success) return { invalid: `schema: ${parsed.error.message}`, text: '', isError: true, progress };
    const ctx = makeContext(this.agent, opts.signal, this.workingDirectories);
    if (opts.backgroundTasks) ctx.backgroundTasks = true;
    const input = parsed.data;
    if (tool.validateInput) {
      const v = await tool.validateInput(input, ctx);
      if (!v.result) return { invalid: v.message, text: v.message, isError: true, progress };
    }
    let result;
    try {
      result = await tool.call(input, ctx, (p) => progress.push(p));
    } catch (err) {
      return { thrown: err as Error, text: (err as Error).message, isError: true, progress };
    }
    const block = tool.mapToolResultToToolResultBlockParam(result.data, ctx.toolUseId);
    this.agent = applyContextModifiers(this.agent, result.contextModifiers ?? []);
    return { data: result.data, block, text: toolResultText(block), isError: block.is_error === true, progress };
  }
}
