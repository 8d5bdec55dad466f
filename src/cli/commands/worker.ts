// `durable-agent worker`: a worker only, connected to TEMPORAL_ADDRESS (the embedded default is `dev`).
import type { Command } from 'commander';
import { UsageError, addConnectionOptions, connectionOverrides, waitForSignal, type ConnOpts } from '../options';
import { addModelQueueOptions, modelQueueLine, modelQueueOptions, type ModelQueueOpts } from './modelQueue';

/** What a worker says at start about Bash's OS sandbox on this host. */
export async function workerSandboxLine(): Promise<string> {
  const { SandboxHost } = await import('../../sandbox/host');
  const a = await new SandboxHost().availability();
  return a.available
    ? 'available (Bash runs sandboxed unless a session opts out)'
    : `UNAVAILABLE — ${a.reason}; sessions run Bash unsandboxed (refused with sandbox.failIfUnavailable)`;
}

/** `dev`, `up` and `worker`: answer with the scripted demo model instead of the Messages API (never implied). */
export const DEMO_MODEL_FLAG = '--demo-model';
export const DEMO_MODEL_HELP =
  "answer every session with the built-in scripted demo model, not Claude (the demo's and tests'; without it, no credentials is an error)";

/** `dev` and `worker`: the Prometheus endpoint (docs/deployment.md "Metrics"). */
export const METRICS_BIND_FLAG = '--metrics-bind <host:port>';
export const METRICS_BIND_HELP =
  "serve the worker's metrics (Temporal's and durable_agent_*) for Prometheus at http://host:port/metrics (env DURABLE_AGENT_METRICS_BIND; off by default)";

/** The flag's value checked (a clear usage error), else the env var's; undefined: off. */
export async function metricsBindOption(raw: string | undefined): Promise<string | undefined> {
  const { metricsBindFrom } = await import('../../temporal/service/metrics');
  try {
    return metricsBindFrom(raw);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function addWorkerCommand(program: Command): void {
  addConnectionOptions(
    addModelQueueOptions(
      program
        .command('worker')
        .description('Run a worker only (connects to TEMPORAL_ADDRESS)')
        .option('--task-queue <name>', 'task queue to poll (env DURABLE_AGENT_TASK_QUEUE)')
        .option('--store-dir <dir>', 'transcripts, ledger and large results (env DURABLE_AGENT_STORE_DIR)')
        .option(
          '--store <url>',
          'a store shared by workers on several hosts: postgres://user:pw@host:5432/db (env DURABLE_AGENT_STORE)',
        )
        .option(
          '--deployment-name <name>',
          'Worker Deployment Versioning: the deployment this worker is a build of (env DURABLE_AGENT_DEPLOYMENT_NAME; off by default, docs/deployment.md)',
        )
        .option(
          '--build-id <id>',
          "Worker Deployment Versioning: this worker's build (env DURABLE_AGENT_BUILD_ID; with --deployment-name)",
        )
        .option(
          '--make-current',
          "make this build the deployment's current version once its pollers are seen (new sessions and turns go to it; running turns finish on their build)",
        )
        .option(DEMO_MODEL_FLAG, DEMO_MODEL_HELP)
        .option(METRICS_BIND_FLAG, METRICS_BIND_HELP),
    ),
  ).action(runWorker);
}

interface WorkerOpts extends ConnOpts, ModelQueueOpts {
  storeDir?: string;
  store?: string;
  demoModel?: boolean;
  deploymentName?: string;
  buildId?: string;
  makeCurrent?: boolean;
  metricsBind?: string;
}

async function runWorker(o: WorkerOpts): Promise<void> {
  if (!!o.deploymentName !== !!o.buildId) throw new UsageError('--deployment-name and --build-id go together');
  const { workerDeployment } = await import('../../temporal/worker');
  let deployment;
  try {
    deployment = workerDeployment(
      o.deploymentName && o.buildId ? { deploymentName: o.deploymentName, buildId: o.buildId } : undefined,
    );
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (o.makeCurrent && !deployment) throw new UsageError('--make-current needs --deployment-name and --build-id');
  const metricsBind = await metricsBindOption(o.metricsBind);
  const modelQueue = modelQueueOptions(o);
  // No credentials, no worker (issue 31 item 7): every session it took would fail at its first call.
  const { modelCredentials, NO_CREDENTIALS_MESSAGE } = await import('../../runtime/credentials');
  const credentials = o.demoModel ? undefined : await modelCredentials();
  if (!o.demoModel && credentials === undefined) throw new UsageError(NO_CREDENTIALS_MESSAGE);
  const { connectWorker, loadConnectionConfig } = await import('../../temporal/service/connection');
  const { TASK_QUEUE_DEFAULT } = await import('../../temporal/workflows/definitions');
  const { createAgentWorker } = await import('../../temporal/worker');
  const { quietTemporalRuntime } = await import('../dev');
  quietTemporalRuntime(metricsBind);
  const config = loadConnectionConfig(connectionOverrides(o));
  // The store first: a bad --store / DURABLE_AGENT_STORE is one line, before any connection.
  const { configuredBlobStore, describeBlobStore } = await import('../../stores/configured');
  const storeDir = o.storeDir ?? (await import('../../temporal/worker')).defaultStoreDir();
  const blobStore = configuredBlobStore({ storeDir, ...(o.store ? { store: o.store } : {}) });
  const demo = o.demoModel ? await (await import('../../demo/scriptedModel')).startDemoModel() : undefined;
  const { demoModelClient } = await import('../dev');
  const connection = await connectWorker(config);
  const worker = await createAgentWorker({
    connection,
    namespace: config.namespace,
    ...(o.taskQueue ? { taskQueue: o.taskQueue } : {}),
    storeDir,
    blobStore,
    ...(demo ? { anthropic: demoModelClient(demo) } : {}),
    ...(deployment ? { deployment } : {}),
    ...modelQueue,
  });
  console.log(
    `worker: ${config.address} namespace ${config.namespace}, task queue ${o.taskQueue ?? process.env.DURABLE_AGENT_TASK_QUEUE ?? TASK_QUEUE_DEFAULT}`,
  );
  console.log(`store: ${describeBlobStore(blobStore)}`);
  console.log(`sandbox: ${await workerSandboxLine()}`);
  if (metricsBind) console.log(`metrics: http://${metricsBind}/metrics`);
  console.log(`model queue: ${modelQueueLine(modelQueue)}`);
  console.log(
    `model: ${demo ? (await import('../../demo/scriptedModel')).DEMO_MODEL_LABEL : `Anthropic Messages API (credentials: ${credentials})`}`,
  );
  console.log(
    `deployment: ${deployment ? `${deployment.deploymentName}, build ${deployment.buildId} (turns stay on the build they started on; sessions move to the current build)` : 'unversioned'}`,
  );
  const running = worker.run();
  if (deployment && o.makeCurrent) {
    const { connectClient } = await import('../../temporal/service/connection');
    const { setCurrentDeploymentVersion } = await import('../../temporal/service/deployment');
    const { client, connection: clientConnection } = await connectClient(config);
    try {
      await setCurrentDeploymentVersion(client, deployment, { namespace: config.namespace });
    } finally {
      await clientConnection.close();
    }
    console.log(`deployment: ${deployment.deploymentName}/${deployment.buildId} is the current version`);
  }
  const signalled = await Promise.race([waitForSignal().then(() => true), running.then(() => false)]);
  if (signalled) {
    // The running calls are handed back: retried on another worker at once (docs/deployment.md "What a crash costs").
    const { shutdownGraceMs } = await import('../../temporal/workerLimits');
    console.log(
      `worker: shutting down; running calls get ${shutdownGraceMs() / 1000} s to finish, then are handed back to other workers`,
    );
  }
  if (worker.getState() === 'RUNNING') worker.shutdown();
  await running.finally(() => demo?.close());
}
