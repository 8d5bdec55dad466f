// `durable-agent demo`: the embedded default plus a session on a scratch copy of the sample project.
import type { Command } from 'commander';
import { addServerOptions, waitForSignal } from '../options';

interface DemoOpts {
  db: string;
  port: number;
  uiPort: number;
  autoApprove: boolean;
  exit?: boolean;
}

export function addDemoCommand(program: Command): void {
  addServerOptions(
    program
      .command('demo')
      .description(
        'Run the demo on the embedded default: dev server + UI + worker + a session on a scratch copy of the sample project',
      ),
  )
    .option('--no-auto-approve', 'leave the approval to you (durable-agent approve …)')
    .option('--exit', 'stop the server when the demo session ends')
    .action(async (o: DemoOpts, cmd: Command) => {
      const { runDemo } = await import('../demo');
      process.exitCode = await runDemo({
        ...o,
        defaultDb: cmd.getOptionValueSource('db') === 'default',
        exit: o.exit ?? false,
        waitForSignal,
      });
    });
}
