// Worker start-up: the only place that builds real clients and stores and wires them into the
// activity factories. Library users call createAgentWorker() with their own tools and hooks.
import {
  NativeConnection,
  Worker,
  bundleWorkflowCode,
  type InjectedSinks,
  type WorkerOptions,
} from '@temporalio/worker';
import { contentHashOf } from '../stores/messageStore';
import { readFileSync } from 'node:fs';
import { loadShellParser, shellParserError } from '../permissions/bashParser';
import { modelLimitFromEnv, shutdownGraceMs, STICKY_QUEUE_TIMEOUT_MS, workerLimits } from './workerLimits';
import { ModelGate } from './activities/modelGate';
import { modelActivitiesPerSecond, type ModelLimit } from '../core/modelLimit';
import { HEARTBEAT_THROTTLE_MS } from '../core/heartbeats';
import { bashSpoolCapBytes } from '../tools/bash/process';
import { TASK_QUEUE_DEFAULT, type SessionSinks } from './workflows/definitions';
import { startSweeping } from '../sandbox/reaper';
import { endSessionTemp, startSessionTempSweeping } from '../sandbox/sessionTemp';
import { endMcpSessions } from '../mcp/sandboxed';
import { createAgentActivities } from './activities';
import { metricsEnabled, startSessionGauges } from './service/metrics';
import type { AgentDepsOptions } from '../runtime/callDeps';
import { encryptionCodecs } from './service/codec';
import { startTracing, tracingWorkerOptions, TRACING_WORKFLOW_MODULE, withTracingInterceptors } from './tracing';
import { agentActivitySpans } from './activities/tracing';
import { narrowProcessPath } from '../hostProcess/programs';

export { createAgentActivities } from './activities';
export { defaultStoreDir, sessionDirName, workerPrivatePaths, type AgentDepsOptions } from '../runtime/callDeps';

export interface AgentWorkerOptions extends AgentDepsOptions {
  connection: NativeConnection;
  namespace?: string;
  /** Default: env DURABLE_AGENT_TASK_QUEUE, else 'durable-agent'. */
  taskQueue?: string;
  /**
   * The model calls' task queue (sessions started with the same `modelTaskQueue` send their model
   * calls there): this worker polls it too, with the shared limit and backoff (docs/deployment.md
   * "One rate limit for many workers"). Default: env DURABLE_AGENT_MODEL_TASK_QUEUE, else none.
   */
  modelTaskQueue?: string;
  /** The model queue's limit across all its workers. Default: env DURABLE_AGENT_MODEL_RPM / _TPM (workerLimits.ts), else none. */
  modelLimit?: ModelLimit & { tokensPerCall?: number };
  /**
   * Worker Deployment Versioning (docs/deployment.md "Upgrading with deployment versions"): this
   * worker is build `buildId` of deployment `deploymentName`; turns stay on the build they started
   * on, sessions move to the current build. Default: env DURABLE_AGENT_DEPLOYMENT_NAME and
   * DURABLE_AGENT_BUILD_ID (both or neither), else off — an unversioned worker.
   */
  deployment?: WorkerDeployment;
  /**
   * Pre-built workflow bundle (tests reuse one); default: bundled from src/temporal/workflows, or from
   * src/temporal/workflows/versioned with a deployment (a versioned worker given a bundle of the plain entry
   * runs every workflow AUTO_UPGRADE: nothing is pinned).
   */
  workflowBundle?: { code: string };
  workerOptions?: Partial<
    Omit<WorkerOptions, 'connection' | 'taskQueue' | 'activities' | 'workflowsPath' | 'workflowBundle'>
  >;
}

export const workflowsPath = require.resolve('./workflows');
/** The workflows of a versioned worker: turns PINNED, sessions AUTO_UPGRADE (src/temporal/workflows/versioned.ts). */
export const versionedWorkflowsPath = require.resolve('./workflows/versioned');
/** Run in each workflow sandbox before its globals are frozen (./workflows/sandboxPreload.ts). */
export const SANDBOX_PRELOAD = require.resolve('./workflows/sandboxPreload');

/**
 * The bundle's `preloadModules`: the sandbox preload that turns the promise hook's stack captures off
 * (issue 33), unless DURABLE_AGENT_WORKFLOW_STACK_TRACES=1 asks for workflow stack traces.
 */
export function workflowPreloads(env: NodeJS.ProcessEnv = process.env): string[] {
  return env.DURABLE_AGENT_WORKFLOW_STACK_TRACES === '1' ? [] : [SANDBOX_PRELOAD];
}

export interface WorkerDeployment {
  deploymentName: string;
  buildId: string;
}

/** The worker's deployment version: the option, else the two env vars (both or neither); undefined: unversioned. */
export function workerDeployment(opt?: WorkerDeployment): WorkerDeployment | undefined {
  if (opt) return opt;
  const deploymentName = process.env.DURABLE_AGENT_DEPLOYMENT_NAME || undefined;
  const buildId = process.env.DURABLE_AGENT_BUILD_ID || undefined;
  if (!deploymentName && !buildId) return undefined;
  if (!deploymentName || !buildId)
    throw new Error(
      `durable-agent: a versioned worker needs both DURABLE_AGENT_DEPLOYMENT_NAME and DURABLE_AGENT_BUILD_ID (${deploymentName ? 'no build id' : 'no deployment name'})`,
    );
  return { deploymentName, buildId };
}

/** Worker.create's options for a deployment version: sessions (and anything unmarked) AUTO_UPGRADE, turns PINNED by their own option. */
export function deploymentWorkerOptions(
  d: WorkerDeployment | undefined,
): Pick<WorkerOptions, 'workerDeploymentOptions'> {
  return d
    ? { workerDeploymentOptions: { useWorkerVersioning: true, version: d, defaultVersioningBehavior: 'AUTO_UPGRADE' } }
    : {};
}

/**
 * The build id every workflow and activity task event of this worker records (issue 33): the SDK's
 * default is `@temporalio/worker@<version>+<sha256 of the bundle>`, 105 characters in ≈ 12 events
 * per model step (1.1 KB of history per step of 3 tool calls); this names the same build (the bundle
 * holds our workflow code and the SDK's workflow library) by the first 65 bits of its hash in
 * lowercase base32 (`contentHashOf`'s alphabet) after `da+`, 16 characters (it was
 * `durable-agent+<16 hex>`, 30). Distinct bundles get distinct ids (a collision is ≈ 2^-32 even
 * among 2^16 builds); a deployment's worker is named by its version instead (`workerDeployment`).
 */
export function shortBuildId(bundleCode: string): string {
  // The last bundle's id kept: a process that starts several workers of one bundle (the tests, a
  // worker restarted in-process) hashes its megabytes once (issue 32).
  if (lastBuild?.code !== bundleCode)
    lastBuild = { code: bundleCode, id: `da+${contentHashOf(bundleCode).slice(0, 13)}` };
  return lastBuild.id;
}
let lastBuild: { code: string; id: string } | undefined;

export async function createAgentWorker(opts: AgentWorkerOptions): Promise<Worker> {
  // Every program the worker and its sandbox runtime look up by name, on the trusted PATH only
  // (src/hostProcess/programs.ts; red teams, issue 30, I-3, J1).
  narrowProcessPath();
  bashSpoolCapBytes(); // a malformed DURABLE_AGENT_BASH_MAX_SPOOL_BYTES stops the worker at start, not each Bash call
  const deployment = workerDeployment(opts.deployment);
  // Payload encryption (docs/encryption.md): keys read now, so bad key material stops the worker at start.
  const codecs = encryptionCodecs(opts.encryption);
  const { activities, closeMcp, blobs } = createAgentActivities(opts);
  // Traces (src/temporal/tracing; docs/deployment.md "Traces"): only when OTEL_* ask for them.
  const tracing = startTracing();
  const traced = tracing ? tracingWorkerOptions(tracing, agentActivitySpans) : undefined;
  // Bash rules and read-only detection run on the tree-sitter-bash parser (wasm, loaded once).
  if (!(await loadShellParser())) {
    console.warn(
      `durable-agent: the shell parser did not load (${shellParserError()}); every Bash command will be treated as unknown (never read-only, matched by no allow rule).`,
    );
  }
  const namespace = opts.namespace ?? process.env.TEMPORAL_NAMESPACE ?? 'default';
  const modelTaskQueue = opts.modelTaskQueue ?? (process.env.DURABLE_AGENT_MODEL_TASK_QUEUE || undefined);
  // Bundled here (as the SDK would): both workers run it, its hash names the build (`shortBuildId`).
  const bundle =
    givenBundle(opts.workflowBundle, !deployment && !tracing) ??
    (await agentBundle(deployment ? versionedWorkflowsPath : workflowsPath, tracing !== undefined));
  const common = {
    connection: opts.connection,
    namespace,
    workflowBundle: bundle,
    // A deployment's worker is named by its version; its build id is the deployment's.
    ...(deployment || opts.workerOptions?.buildId ? {} : { buildId: shortBuildId(bundle.code) }),
    // Cancellation reaches an activity on its next heartbeat: keep the throttle short so an
    // interrupted Bash dies within two seconds. Activities send a keepalive every second
    // (runtime/heartbeat.ts, temporal/activities/runtime.ts); the throttle coalesces progress and the model's
    // per-event heartbeats to the same rate — each heartbeat sent is a Temporal Cloud action
    // (core/heartbeats.ts: the numbers, and the timeouts they keep up with).
    maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE_MS,
    defaultHeartbeatThrottleInterval: HEARTBEAT_THROTTLE_MS,
    // SIGTERM/SIGINT: running activities get this long to finish, then are handed back (src/temporal/workerLimits.ts).
    shutdownGraceTime: shutdownGraceMs(),
    ...deploymentWorkerOptions(deployment),
    ...(opts.workerOptions?.identity ? { identity: opts.workerOptions.identity } : {}),
  };
  const worker = await Worker.create({
    ...common,
    taskQueue: opts.taskQueue ?? process.env.DURABLE_AGENT_TASK_QUEUE ?? TASK_QUEUE_DEFAULT,
    activities,
    // A workflow task for a workflow this worker has cached waits this long on its sticky queue, then
    // goes to the shared queue (another worker replays the workflow). The SDK's 10 s was most of what
    // a SIGKILL cost a session after its tool call resumed (BENCHMARKS.md "Resume"); a living worker
    // starts such a task in milliseconds, tens of them under load.
    stickyQueueScheduleToStartTimeout: STICKY_QUEUE_TIMEOUT_MS,
    // Activities, workflow tasks, cached workflows: sized per concurrent session (src/temporal/workerLimits.ts).
    ...workerLimits(),
    ...opts.workerOptions,
    sinks: { ...sessionSinks(), ...opts.workerOptions?.sinks, ...traced?.sinks },
    // A prebuilt bundle holds its interceptor modules already (bundleAgentWorkflows({ tracing: true })).
    interceptors: withTracingInterceptors(opts.workerOptions?.interceptors, traced?.interceptors, !!bundle),
    // The codec runs in the worker, outside the workflow sandbox: the bundle never sees a key.
    dataConverter: {
      ...opts.workerOptions?.dataConverter,
      payloadCodecs: [...(opts.workerOptions?.dataConverter?.payloadCodecs ?? []), ...codecs],
    },
  });
  const modelWorker = modelTaskQueue
    ? await createModelWorker(common, modelTaskQueue, activities, opts.modelLimit ?? modelLimitFromEnv(), {
        ...opts.workerOptions?.dataConverter,
        payloadCodecs: [...(opts.workerOptions?.dataConverter?.payloadCodecs ?? []), ...codecs],
      })
    : undefined;
  // The worker owns its MCP connections: they close when it stops running.
  const run = worker.run.bind(worker);
  worker.run = async () => {
    // The model queue's worker runs and stops with this one (SIGTERM reaches both through the runtime).
    const modelRun = modelWorker?.run();
    // Sandbox processes left by workers of this host that died (a SIGKILL in the first
    // milliseconds of a sandboxed Bash): swept now and every minute (src/sandbox/reaper.ts).
    const stopSweeping = startSweeping();
    // Session temp directories left by sessions that ended long ago (src/sandbox/sessionTemp.ts).
    const stopTempSweeping = startSessionTempSweeping();
    // With a metrics endpoint (src/temporal/service/metrics.ts): the session gauges, polled from visibility.
    const stopGauges = metricsEnabled() ? startSessionGauges(opts.connection, namespace) : undefined;
    try {
      return await run();
    } finally {
      if (modelWorker?.getState() === 'RUNNING') modelWorker.shutdown();
      await modelRun?.catch((err: unknown) =>
        console.warn(`durable-agent: the model queue's worker failed: ${String(err)}`),
      );
      stopSweeping();
      stopTempSweeping();
      stopGauges?.();
      await tracing?.flush().catch(() => undefined);
      await closeMcp();
      // A store this worker opened (a PostgreSQL pool from DURABLE_AGENT_STORE) closes with it; one passed in belongs to the caller.
      if (!opts.blobStore) await (blobs as { close?: () => Promise<void> }).close?.().catch(() => undefined);
    }
  };
  return worker;
}

/**
 * The worker of the model queue (issue 34): the model activities behind the shared backoff
 * (activities/modelGate.ts), and the limiter workflow; with a limit, the server dispatches at most
 * `maxTaskQueueActivitiesPerSecond` model calls a second across every worker of the queue, in
 * fairness-key order (one key per root session: temporal/workflows/modelQueue.ts).
 */
async function createModelWorker(
  common: Omit<WorkerOptions, 'taskQueue'>,
  modelTaskQueue: string,
  activities: ReturnType<typeof createAgentActivities>['activities'],
  limit: (ModelLimit & { tokensPerCall?: number }) | undefined,
  dataConverter: WorkerOptions['dataConverter'],
): Promise<Worker> {
  const gate = new ModelGate(modelTaskQueue);
  return Worker.create({
    ...common,
    taskQueue: modelTaskQueue,
    activities: { callModel: gate.wrap(activities.callModel), compactContext: gate.wrap(activities.compactContext) },
    ...workerLimits(),
    ...(limit
      ? { maxTaskQueueActivitiesPerSecond: modelActivitiesPerSecond(limit, limit.tokensPerCall ?? 8_000) }
      : {}),
    ...(dataConverter ? { dataConverter } : {}),
  });
}

/** The workflows at `path` bundled (webpack), with the sandbox preload and, for a tracing worker, its interceptors. */
function agentBundle(path: string, tracing: boolean): Promise<{ code: string }> {
  return bundleWorkflowCode({
    workflowsPath: path,
    logger: quietLogger,
    preloadModules: workflowPreloads(),
    ...(tracing ? { workflowInterceptorModules: [TRACING_WORKFLOW_MODULE] } : {}),
  });
}

const bundleCache = new Map<boolean, Promise<{ code: string }>>();
/**
 * Bundles the workflows once per process (webpack is slow). `tracing`: with the workflow interceptors
 * of a tracing worker (a worker given a prebuilt bundle adds no module to it).
 */
export function bundleAgentWorkflows(opts: { tracing?: boolean } = {}): Promise<{ code: string }> {
  const tracing = opts.tracing === true;
  let bundle = bundleCache.get(tracing);
  if (!bundle) {
    bundle = agentBundle(workflowsPath, tracing);
    bundleCache.set(tracing, bundle);
  }
  return bundle;
}

/**
 * The bundle passed in; else, in test runs only (scripts/run-tests.mjs), the one the runner bundled
 * from this build's workflows once for the run: it names the file in DURABLE_AGENT_TEST_WORKFLOW_BUNDLE
 * and the entry in DURABLE_AGENT_TEST_WORKFLOWS_PATH; a plain worker (no deployment version, no
 * tracing) of that same entry — `dev`, `worker`, `up` started by a test — loads it instead of running webpack.
 */
function givenBundle(passed: { code: string } | undefined, plain: boolean): { code: string } | undefined {
  if (passed) return passed;
  const file = process.env.DURABLE_AGENT_TEST_WORKFLOW_BUNDLE;
  if (!plain || !file || process.env.DURABLE_AGENT_TEST_WORKFLOWS_PATH !== workflowsPath) return undefined;
  try {
    return { code: readFileSync(file, 'utf8') };
  } catch {
    return undefined; // the run is over (its files removed): bundle as usual
  }
}

const quietLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (m: string) => console.warn(m),
  error: (m: string) => console.error(m),
};

/**
 * The worker's side of the session workflow's sinks: a session that ended has its temp and spool
 * directories on this host removed (kept while a run of it holds them; DURABLE_AGENT_KEEP_SESSION_TEMP=1
 * keeps them). Not called during replay. Another host's leftovers go with that host's sweep.
 */
export function sessionSinks(): InjectedSinks<SessionSinks> {
  return {
    durableAgent: {
      sessionEnded: {
        fn: (_info, sessionId) => {
          // Its stdio MCP servers bound to its sandbox stop (src/mcp/sandboxed.ts), then its directories go.
          void endMcpSessions(sessionId);
          void endSessionTemp(sessionId).catch((err: unknown) =>
            console.warn(
              `durable-agent: the temp directories of session ${sessionId} were not removed: ${String(err)}`,
            ),
          );
        },
        callDuringReplay: false,
      },
    },
  };
}
