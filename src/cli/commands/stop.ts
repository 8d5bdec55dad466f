// `durable-agent stop ID`: ends a session's loop — its wake-up and cron jobs are dropped and it ends
// at its next idle point (a running turn finishes first). `interrupt` stops a turn; `cancel` ends
// the session at once.
import type { Command } from 'commander';
import { addConnectionOptions, identity, print, withClient, type ConnOpts } from '../options';

export function addStopCommand(program: Command): void {
  addConnectionOptions(
    program
      .command('stop')
      .description("End a session's loop: drop its wake-up and cron jobs; it ends at its next idle point")
      .argument('<id>')
      .option('--json', 'JSON'),
  ).action(async (id: string, o: ConnOpts) =>
    withClient(o, async (client) => {
      const { stopSession } = await import('../../temporal/client');
      await stopSession(client, id, identity());
      print(o, { session: id, stopRequested: true }, `stop sent to ${id}: it ends at its next idle point`);
    }),
  );
}
