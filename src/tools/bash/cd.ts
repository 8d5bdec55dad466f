// The session's working directory in Bash: a standalone `cd DIR` moves it (within the working
// directories only, without a shell), and a command runs only where it still exists.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import type { ContextModifier } from '../../core/context';
import type { ToolUseContext } from '../../toolProtocol/Tool';
import { resolvePath } from '../paths';
import { standaloneCd } from './command';
import type { BashInput, BashOutput } from './schema';
import { withinDirectories } from '../../sandbox/sessionPlan';

export function isStandaloneCd(command: string): boolean {
  return standaloneCd(command) !== undefined;
}

export async function runCd(
  input: BashInput,
  target: string | undefined,
  ctx: ToolUseContext,
  started: number,
  timeoutMs: number,
) {
  const base: BashOutput = {
    command: input.command,
    output: '',
    exitCode: 0,
    signal: null,
    timedOut: false,
    interrupted: false,
    benignExitCode: false,
    durationMs: 0,
    timeoutMs,
  };
  const dir = resolvePath(ctx.agent.cwd, target ?? os.homedir());
  let isDir: boolean;
  try {
    isDir = (await fs.stat(dir)).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) {
    return {
      data: {
        ...base,
        exitCode: 1,
        output: `bash: cd: ${target ?? '~'}: No such file or directory`,
        durationMs: Date.now() - started,
      },
    };
  }
  const roots = [ctx.agent.cwd, ...ctx.agent.additionalDirectories, ...ctx.permission.workingDirectories];
  if (!withinDirectories(dir, roots)) {
    return {
      data: {
        ...base,
        exitCode: 1,
        output: `cd to ${dir} was refused: it is outside the session's working directories (${[...new Set(roots)].join(', ')}). Use absolute paths instead.`,
        durationMs: Date.now() - started,
      },
    };
  }
  const modifiers: ContextModifier[] = [{ type: 'setCwd', cwd: dir }];
  return { data: { ...base, newCwd: dir, durationMs: Date.now() - started }, contextModifiers: modifiers };
}

export async function checkWorkingDirectory(cwd: string): Promise<void> {
  try {
    if (!(await fs.stat(cwd)).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new Error(`The working directory ${cwd} does not exist (any more); cd to an existing directory first.`);
  }
}
