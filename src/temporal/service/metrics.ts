// The worker's metrics endpoint (issue 35 deliverable 2): the Temporal SDK runtime installed with
// its Prometheus exporter on `--metrics-bind` (env DURABLE_AGENT_METRICS_BIND), which serves
// Temporal's own worker metrics and ours (src/temporal/activities/metrics.ts) on `/metrics`; without it no
// exporter and nothing listens. Runtime.install must come before any connection or worker. Beside
// it, the session gauges: what visibility says of the open sessions (by status, through the
// DurableAgentStatus search attribute) and of the approvals they wait on, polled by each worker.
import { inspect } from 'node:util';
import { Client, type ConnectionLike } from '@temporalio/client';
import { DefaultLogger, Runtime, type LogEntry, type LogLevel } from '@temporalio/worker';
import { QUERIES } from '../../core/ids';
import { terminalLine } from '../../core/terminalText';

let installed: { metricsBind?: string } | undefined;

/** `host:port` or a clear error. */
export function parseMetricsBind(raw: string): string {
  const m = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(raw.trim());
  if (!m || Number(m[2]) > 65535)
    throw new Error(`durable-agent: --metrics-bind wants host:port (e.g. 127.0.0.1:9464), not "${raw}"`);
  return raw.trim();
}

/** The bind address asked for: the option, else env DURABLE_AGENT_METRICS_BIND; undefined: off. */
export function metricsBindFrom(opt?: string): string | undefined {
  const raw = opt ?? (process.env.DURABLE_AGENT_METRICS_BIND || undefined);
  return raw === undefined ? undefined : parseMetricsBind(raw);
}

/**
 * The SDK's log line without colours and with the message's controls shown: the CLI's stderr shows
 * every control character (src/cli/terminalText.ts guardStderr), so colour codes would print as
 * text, and a message can carry agent-chosen text (issue 30, L6).
 */
function plainLogLine(entry: LogEntry): void {
  const date = new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString();
  const meta = entry.meta === undefined ? '' : ` ${inspect(entry.meta, { colors: false, breakLength: Infinity })}`;
  process.stderr.write(`${date} [${entry.level}] ${terminalLine(entry.message)}${meta}\n`);
}

/**
 * Installs the SDK runtime once per process: the logger at DURABLE_AGENT_LOG_LEVEL (WARN), and with
 * `metricsBind` the Prometheus exporter. Asking for metrics after a runtime without them was
 * installed is an error (it cannot be changed any more); otherwise a second call is a no-op.
 */
export function installTemporalRuntime(opts: { metricsBind?: string } = {}): void {
  if (installed) {
    if (opts.metricsBind && installed.metricsBind !== opts.metricsBind)
      throw new Error(
        `durable-agent: the Temporal runtime of this process is already installed ${installed.metricsBind ? `with metrics on ${installed.metricsBind}` : 'without metrics'}`,
      );
    return;
  }
  const level = (process.env.DURABLE_AGENT_LOG_LEVEL as LogLevel | undefined) ?? 'WARN';
  try {
    Runtime.install({
      logger: new DefaultLogger(level, plainLogLine),
      ...(opts.metricsBind ? { telemetryOptions: { metrics: { prometheus: { bindAddress: opts.metricsBind } } } } : {}),
    });
  } catch (err) {
    // Installed by someone else (a library user, a test): metrics asked for cannot be added now.
    if (opts.metricsBind) throw err;
  }
  installed = opts.metricsBind ? { metricsBind: opts.metricsBind } : {};
}

/** True when this process serves metrics (the session gauges are polled only then). */
export function metricsEnabled(): boolean {
  return !!installed?.metricsBind;
}

/** The statuses of an open session (core/sessionState.ts SessionStatusName), one gauge series each. */
export const OPEN_SESSION_STATUSES = ['running', 'waiting', 'awaiting_approval', 'waiting_for_model', 'interrupted'];

export interface SessionGaugeSample {
  sessions: Record<string, number>;
  approvalsPending: number;
  oldestApprovalAgeSeconds: number;
}

/** At most this many waiting sessions are asked for their approvals per poll. */
const MAX_APPROVAL_QUERIES = 100;

/** One poll: open sessions by status (visibility counts), then the approvals of those awaiting one (status queries). */
export async function sampleSessionGauges(client: Client, now = Date.now()): Promise<SessionGaugeSample> {
  const sessions: Record<string, number> = {};
  for (const status of OPEN_SESSION_STATUSES) {
    const { count } = await client.workflow.count(
      `WorkflowType = 'sessionWorkflow' AND ExecutionStatus = 'Running' AND DurableAgentStatus = '${status}'`,
    );
    sessions[status] = count;
  }
  let approvalsPending = 0;
  let oldest = now;
  let asked = 0;
  for await (const wf of client.workflow.list({
    query: `WorkflowType = 'sessionWorkflow' AND ExecutionStatus = 'Running' AND DurableAgentStatus = 'awaiting_approval'`,
  })) {
    if (asked++ >= MAX_APPROVAL_QUERIES) break;
    try {
      const s = await client.workflow
        .getHandle(wf.workflowId, wf.runId)
        .query<{ pendingApprovals?: Array<{ since: number }> }>(QUERIES.status);
      for (const p of s.pendingApprovals ?? []) {
        approvalsPending++;
        oldest = Math.min(oldest, p.since);
      }
    } catch {
      // Ended meanwhile, or its worker is away: counted next time.
    }
  }
  return { sessions, approvalsPending, oldestApprovalAgeSeconds: Math.max(0, Math.round((now - oldest) / 1000)) };
}

/**
 * Polls the session gauges every `intervalMs` (env DURABLE_AGENT_METRICS_POLL_MS, default 15 s) onto
 * the runtime's meter; returns the stop. Each worker reports the same namespace-wide values: alert on
 * max() across workers. Needs the DurableAgentStatus search attribute (dev and up register it);
 * without it the poll fails once, says so, and stops.
 */
export function startSessionGauges(
  connection: ConnectionLike,
  namespace: string,
  intervalMs = Number(process.env.DURABLE_AGENT_METRICS_POLL_MS) || 15_000,
): () => void {
  const client = new Client({ connection, namespace });
  const meter = Runtime.instance().metricMeter;
  const sessions = meter.createGauge('durable_agent_sessions', 'int');
  const pending = meter.createGauge('durable_agent_approvals_pending', 'int');
  const age = meter.createGauge('durable_agent_approval_oldest_age_seconds', 'int');
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const poll = async (): Promise<void> => {
    try {
      const s = await sampleSessionGauges(client);
      for (const [status, n] of Object.entries(s.sessions)) sessions.set(n, { status });
      pending.set(s.approvalsPending);
      age.set(s.oldestApprovalAgeSeconds);
    } catch (err) {
      console.warn(
        `durable-agent: the session gauges are not reported (${String((err as Error).message ?? err)}); register the DurableAgentStatus search attribute (docs/deployment.md "Metrics")`,
      );
      return;
    }
    if (!stopped) timer = setTimeout(() => void poll(), intervalMs);
  };
  void poll();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
