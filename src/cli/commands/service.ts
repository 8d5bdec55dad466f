// `durable-agent up` / `down`: the embedded default as a background service (src/cli/service.ts).
import type { Command } from 'commander';
import { durableAgentHome } from '../../stores/dataHome';
import { addServerOptions, print, UsageError } from '../options';
import { DEMO_MODEL_FLAG, DEMO_MODEL_HELP } from './worker';

/** A loopback TEMPORAL_ADDRESS's port: `up` serves where `run` connects unless --port says otherwise. */
export function defaultServicePort(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const m = /^(?:localhost|127\.0\.0\.1|\[::1\]):(\d+)$/.exec(env.TEMPORAL_ADDRESS ?? '');
  return m ? Number(m[1]) : undefined;
}

export function addServiceCommands(program: Command): void {
  addServerOptions(
    program
      .command('up')
      .description(
        'Start the embedded default (dev server + worker, as `dev`) as a background service that outlives this terminal; its pid file and log are in the data directory',
      ),
  )
    .option('--ip <ip>', 'address to bind', '127.0.0.1')
    .option('--task-queue <name>', 'task queue of the worker (env DURABLE_AGENT_TASK_QUEUE)')
    .option(DEMO_MODEL_FLAG, DEMO_MODEL_HELP)
    .option('--json', 'one JSON line')
    .action(
      async (
        o: {
          db: string;
          port: number;
          uiPort: number;
          ip: string;
          taskQueue?: string;
          demoModel?: boolean;
          json?: boolean;
        },
        cmd: Command,
      ) => {
        // The service's worker runs with this environment: without credentials it would not start.
        if (!o.demoModel) {
          const { modelCredentials, NO_CREDENTIALS_MESSAGE } = await import('../../runtime/credentials');
          if ((await modelCredentials()) === undefined) throw new UsageError(NO_CREDENTIALS_MESSAGE);
        }
        const { serviceLine, serviceUp } = await import('../service');
        let port = o.port;
        if (cmd.getOptionValueSource('port') === 'default') {
          const fromEnv = defaultServicePort();
          if (fromEnv !== undefined) port = fromEnv;
          else if (process.env.TEMPORAL_ADDRESS)
            process.stderr.write(
              `durable-agent: warning: TEMPORAL_ADDRESS is ${process.env.TEMPORAL_ADDRESS}, not this machine: \`run\` will connect there, not to the service on port ${port}\n`,
            );
        }
        const args = ['--db', o.db, '--port', String(port), '--ui-port', String(o.uiPort), '--ip', o.ip];
        if (o.taskQueue) args.push('--task-queue', o.taskQueue);
        if (o.demoModel) args.push(DEMO_MODEL_FLAG);
        let r: Awaited<ReturnType<typeof serviceUp>>;
        try {
          r = await serviceUp(args);
        } catch (err) {
          throw new UsageError((err as Error).message);
        }
        print(o, { status: r.status, ...r.state, home: durableAgentHome() }, serviceLine(r));
      },
    );

  program
    .command('down')
    .description('Stop the background service started by `up` (its worker, then its server)')
    .option('--json', 'one JSON line')
    .action(async (o: { json?: boolean }) => {
      const { serviceDown } = await import('../service');
      const r = await serviceDown();
      const home = durableAgentHome();
      print(
        o,
        { ...r, home },
        r.status === 'not_running'
          ? `durable-agent is not running (no service in ${home}): nothing to stop`
          : `durable-agent stopped (pid ${r.pid})${r.forced ? ': it did not stop within 30 s and was killed' : ''}`,
      );
    });
}
