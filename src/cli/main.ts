#!/usr/bin/env node
// durable-agent: the command-line program — the embedded default (`dev`), workers, and the
// commands that start, follow, steer and audit sessions.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { DurableAgentError, type ErrorCode } from '../core/errors';
import { addCodecServerCommand } from './commands/codecServer';
import { addDemoCommand } from './commands/demo';
import { addDevCommand } from './commands/dev';
import { addRunCommand } from './commands/run';
import { addScheduleCommands } from './commands/schedule';
import { addServiceCommands } from './commands/service';
import {
  addAttachCommand,
  addAuditCommand,
  addLsCommand,
  addStatusCommand,
  addTranscriptCommand,
} from './commands/sessions';
import {
  addApproveCommand,
  addCancelCommand,
  addDenyCommand,
  addInterruptCommand,
  addSendCommand,
} from './commands/steer';
import { addStopCommand } from './commands/stop';
import { addBudgetCommand } from './commands/budget';
import { addWorkerCommand } from './commands/worker';
import { flushTracing } from '../temporal/tracing';
import { narrowProcessPath } from '../hostProcess/programs';
import { guardStderr, terminalSafe } from './terminalText';

/**
 * The commands, in the order `--help` lists them. A new command is a file in src/cli/commands/
 * exporting `addXCommand(program: Command): void` (commander's `program.command(…)`; the shared
 * flags and helpers are in ./options) and one line here.
 */
const COMMANDS: Array<(program: Command) => void> = [
  addDevCommand,
  addServiceCommands,
  addDemoCommand,
  addWorkerCommand,
  addRunCommand,
  addAttachCommand,
  addLsCommand,
  addStatusCommand,
  addTranscriptCommand,
  addAuditCommand,
  addInterruptCommand,
  addSendCommand,
  addApproveCommand,
  addDenyCommand,
  addCancelCommand,
  addScheduleCommands,
  addStopCommand,
  addBudgetCommand,
  addCodecServerCommand,
];

export function buildProgram(): Command {
  const program = new Command('durable-agent')
    .description('A durable agent runner: every model call and every tool call is a Temporal activity.')
    .version(JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')).version as string)
    .showSuggestionAfterError(true)
    .exitOverride();
  program.configureOutput({ outputError: (str, write) => write(str.split('\n').filter(Boolean)[0] + '\n') });
  for (const add of COMMANDS) add(program);
  return program;
}

const WHOLE_MESSAGE = new Set<ErrorCode>(['SERVER_UNREACHABLE', 'NOT_FOUND', 'NOT_PENDING', 'SESSION_ENDED']);

/** One line, no stack: what went wrong and what to do. */
export function describeError(err: unknown): string {
  // These say all they need in a message made for the terminal; the others' first line is the point.
  if (err instanceof DurableAgentError && WHOLE_MESSAGE.has(err.code)) return err.message;
  if (err instanceof Error) return (err.message.split('\n')[0] ?? String(err)) as string;
  return String(err);
}

/** `durable-agent -p …` and `durable-agent --output-format … -p …`, as `claude -p …`: `run -p …`. */
export function withPrintAlias(argv: readonly string[]): string[] {
  const first = argv[2] ?? '';
  return first === '-p' || first === '--print' || first === '--output-format' || first.startsWith('--output-format=')
    ? [...argv.slice(0, 2), 'run', ...argv.slice(2)]
    : [...argv];
}

export async function main(argv: string[]): Promise<number> {
  // Before any command looks a program up (the sandbox probe of `run`, `temporal` of `dev`): the
  // trusted PATH, not npm's `<project>/node_modules/.bin` first (src/hostProcess/programs.ts).
  narrowProcessPath();
  const program = buildProgram();
  try {
    await program.parseAsync(withPrintAlias(argv));
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version exit 0; usage errors were printed by commander in one line.
      return err.exitCode;
    }
    process.stderr.write(`durable-agent: ${terminalSafe(describeError(err))}\n`);
    return 1;
  }
}

if (require.main === module) {
  // Whatever reaches the operator's terminal through stderr shows control characters, never obeys them.
  guardStderr();
  main(process.argv).then(
    // Spans this command made (a session's start, OTEL_* set) leave before the process does.
    async (code) => {
      await flushTracing();
      process.exit(code);
    },
    (err) => {
      process.stderr.write(`durable-agent: ${terminalSafe(describeError(err))}\n`);
      process.exit(1);
    },
  );
}
