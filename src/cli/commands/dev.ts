// `durable-agent dev`: the embedded default — a Temporal dev server (SQLite, with its UI) and a worker.
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { addServerOptions, waitForSignal } from '../options';
import {
  DEMO_MODEL_FLAG,
  DEMO_MODEL_HELP,
  METRICS_BIND_FLAG,
  METRICS_BIND_HELP,
  metricsBindOption,
  workerSandboxLine,
} from './worker';
import { addModelQueueOptions, modelQueueLine, modelQueueOptions, type ModelQueueOpts } from './modelQueue';

interface DevOpts extends ModelQueueOpts {
  db: string;
  port: number;
  uiPort: number;
  ip: string;
  taskQueue?: string;
  demoModel?: boolean;
  uiCodecEndpoint?: string;
  metricsBind?: string;
  /** Run as the background service of `durable-agent up` (src/cli/service.ts). */
  service?: boolean;
}

export function addDevCommand(program: Command): void {
  addModelQueueOptions(
    addServerOptions(
      program
        .command('dev')
        .description(
          'Start the embedded default: a Temporal dev server (persisted to SQLite, with its UI) and a worker',
        ),
    ),
  )
    .option('--ip <ip>', 'address to bind', '127.0.0.1')
    .option('--task-queue <name>', 'task queue of the worker (env DURABLE_AGENT_TASK_QUEUE)')
    .option(DEMO_MODEL_FLAG, DEMO_MODEL_HELP)
    .option(
      '--ui-codec-endpoint <url>',
      "the UI decodes encrypted payloads through this codec server (`durable-agent codec-server`'s URL; docs/encryption.md)",
    )
    .option(METRICS_BIND_FLAG, METRICS_BIND_HELP)
    .addOption(new Option('--service', 'run as the background service of `durable-agent up`').hideHelp())
    .action(runDev);
}

async function runDev(o: DevOpts, cmd: Command): Promise<void> {
  const { startDev } = await import('../dev');
  const defaultDb = cmd.getOptionValueSource('db') === 'default';
  const metricsBind = await metricsBindOption(o.metricsBind);
  const modelQueue = modelQueueOptions(o);
  const dev = await startDev({
    db: o.db,
    defaultDb,
    port: o.port,
    uiPort: o.uiPort,
    ip: o.ip,
    ...(o.taskQueue ? { taskQueue: o.taskQueue } : {}),
    ...(o.demoModel ? { demoModel: true } : {}),
    ...(o.uiCodecEndpoint ? { uiCodecEndpoint: o.uiCodecEndpoint } : {}),
    ...(metricsBind ? { metricsBind } : {}),
    ...modelQueue,
  });
  const { TASK_QUEUE_DEFAULT } = await import('../../temporal/workflows/definitions');
  const taskQueue = o.taskQueue ?? process.env.DURABLE_AGENT_TASK_QUEUE ?? TASK_QUEUE_DEFAULT;
  console.log(`temporal: ${dev.server.address} (persisted to ${resolve(o.db)})`);
  console.log(`ui:       ${dev.server.uiAddress}`);
  console.log(`worker:   task queue ${taskQueue}`);
  console.log(`model queue: ${modelQueueLine(modelQueue)}`);
  console.log(`sandbox:  ${await workerSandboxLine()}`);
  if (metricsBind) console.log(`metrics:  http://${metricsBind}/metrics`);
  console.log(
    `ready. In another terminal: durable-agent run "…"   (Ctrl-C here stops the server and the worker; sessions resume on the next start)`,
  );
  // As `up`'s service: the state file `up` waits for, removed when it stops.
  const unannounce = o.service
    ? (await import('../service')).announceService({
        address: dev.server.address,
        ...(dev.server.uiAddress ? { ui: dev.server.uiAddress } : {}),
        taskQueue,
        db: resolve(o.db),
      })
    : undefined;
  await waitForSignal();
  console.log('stopping…');
  await dev.stop();
  unannounce?.();
}
