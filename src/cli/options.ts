// The CLI's shared pieces: connection flags and the client they make, value parsers, output
// (text or --json), following a session until it ends or the user detaches.
import { hostname, userInfo } from 'node:os';
import { InvalidArgumentError, type Command } from 'commander';
import type { Client } from '@temporalio/client';
import type { ConnectionOverrides } from '../temporal/service/connection';
import { defaultDevDb } from '../stores/dataHome';
import { DurableAgentError } from '../core/errors';
import { terminalSafe } from './terminalText';

// The Temporal client and what follows a session are loaded by the commands that talk to a server,
// when they do (issue 32: `--help`, a usage error and `dev`'s checks no longer load them; every
// command module imports this one).

export class UsageError extends DurableAgentError {
  constructor(message: string) {
    super('USAGE', message);
  }
}

export interface ConnOpts {
  address?: string;
  namespace?: string;
  apiKey?: string;
  tls?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  tlsCa?: string;
  tlsServerName?: string;
  taskQueue?: string;
  json?: boolean;
}

export function connectionOverrides(o: ConnOpts): ConnectionOverrides {
  const tlsFiles = o.tlsCert || o.tlsKey || o.tlsCa || o.tlsServerName;
  return {
    ...(o.address ? { address: o.address } : {}),
    ...(o.namespace ? { namespace: o.namespace } : {}),
    ...(o.apiKey ? { apiKey: o.apiKey } : {}),
    ...(tlsFiles
      ? {
          tls: {
            ...(o.tlsCert ? { clientCertPath: o.tlsCert } : {}),
            ...(o.tlsKey ? { clientKeyPath: o.tlsKey } : {}),
            ...(o.tlsCa ? { serverCaCertPath: o.tlsCa } : {}),
            ...(o.tlsServerName ? { serverName: o.tlsServerName } : {}),
          },
        }
      : o.tls !== undefined
        ? { tls: o.tls }
        : {}),
  };
}

export function addConnectionOptions(cmd: Command): Command {
  return cmd
    .option('--address <host:port>', 'Temporal frontend address (env TEMPORAL_ADDRESS, default localhost:7233)')
    .option('--namespace <name>', 'Temporal namespace (env TEMPORAL_NAMESPACE, default "default")')
    .option('--api-key <key>', 'Temporal API key (env TEMPORAL_API_KEY); turns TLS on')
    .option('--tls', 'connect with TLS (env TEMPORAL_TLS)')
    .option('--tls-cert <path>', 'mTLS client certificate (env TEMPORAL_TLS_CLIENT_CERT_PATH)')
    .option('--tls-key <path>', 'mTLS client key (env TEMPORAL_TLS_CLIENT_KEY_PATH)')
    .option('--tls-ca <path>', 'server CA certificate (env TEMPORAL_TLS_SERVER_CA_CERT_PATH)')
    .option('--tls-server-name <name>', 'TLS server name (env TEMPORAL_TLS_SERVER_NAME)');
}

/** The embedded server's options, shared by `dev` and `demo`. */
export function addServerOptions(cmd: Command): Command {
  return cmd
    .option(
      '--db <file>',
      'SQLite file the server persists to (env DURABLE_AGENT_DEV_DB; default: temporal.db in the data directory, $DURABLE_AGENT_HOME or ~/.durable-agent)',
      defaultDevDb(),
    )
    .option('--port <n>', 'gRPC port of the server', positiveInt('--port'), 7233)
    .option('--ui-port <n>', 'port of the Temporal UI', positiveInt('--ui-port'), 8233);
}

export async function withClient<T>(o: ConnOpts, fn: (client: Client) => Promise<T>): Promise<T> {
  const { connectClient, loadConnectionConfig } = await import('../temporal/service/connection');
  const { connection, client } = await connectClient(loadConnectionConfig(connectionOverrides(o)));
  try {
    return await fn(client);
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/** Throws SessionNotFoundError unless the session's workflow exists. */
export async function sessionExists(client: Client, id: string): Promise<void> {
  const { SessionNotFoundError, sessionHandle } = await import('../temporal/client');
  const { isWorkflowNotFound } = await import('../temporal/service/errors');
  try {
    await sessionHandle(client, id).describe();
  } catch (err) {
    if (isWorkflowNotFound(err)) throw new SessionNotFoundError(id);
    throw err;
  }
}

export const positiveInt = (name: string) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a positive whole number`);
  return n;
};
export const wholeNumber = (name: string) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} must be a whole number (0 or more)`);
  return n;
};
/** A budget in US dollars: a finite number above 0, at most $1,000,000 (a typo of zeros is refused). */
export const usdAmount = (name: string) => (v: string) => {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError(`${name} must be an amount of US dollars above 0 (e.g. 5 or 0.50), got "${v}"`);
  if (n > 1_000_000) throw new InvalidArgumentError(`${name} ${v} is more than $1,000,000: refused as a likely typo`);
  return n;
};
/** A fraction strictly between 0 and 1 (a threshold). */
export const fraction = (name: string) => (v: string) => {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n <= 0 || n >= 1)
    throw new InvalidArgumentError(`${name} must be a fraction between 0 and 1 (e.g. 0.8), got "${v}"`);
  return n;
};
export const collect = (v: string, prev: string[]) => [...prev, v];
export const identity = () => `${userInfo().username}@${hostname()}`;

export function print(o: ConnOpts, value: unknown, text: string): void {
  process.stdout.write(`${o.json ? JSON.stringify(value) : terminalSafe(text)}\n`);
}

export function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}

/** Follows the session until it ends ('ended') or the user detaches ('detached'); sets the exit code. */
export async function followAndExit(client: Client, id: string, o: ConnOpts): Promise<'ended' | 'detached'> {
  const { followSession } = await import('./follow');
  const { watchForWorker } = await import('./workerCheck');
  const { runningSession } = await import('../temporal/client');
  const detach = waitForSignal();
  // Without a worker on the session's task queue it would wait silently: say so, once.
  const watch = watchForWorker(client, () =>
    runningSession(client, id).then(
      (s) => s.taskQueue,
      () => undefined,
    ),
  );
  const outcome = await followSession(client, id, { json: o.json ?? false, detach }).finally(() => watch.stop());
  if (outcome.kind === 'detached') {
    console.error(
      `\ndetached; the session keeps running.\n  re-attach:  durable-agent attach ${id}\n  interrupt:  durable-agent interrupt ${id}\n  cancel:     durable-agent cancel ${id}`,
    );
    process.exitCode = 130;
    return 'detached';
  }
  process.exitCode = outcome.status === 'completed' ? 0 : 1;
  return 'ended';
}
