// The one place Temporal connection settings come from (env vars, Temporal's names) and the
// one way the client and the worker connect. Explicit options beat env vars.
import { DurableAgentError } from '../../core/errors';
import * as fs from 'node:fs';
import * as net from 'node:net';
import { Client, Connection, type ClientInterceptors, type TLSConfig } from '@temporalio/client';
import type { EncryptionSetting } from '../../encryption/keys';
import { encryptionCodecs } from './codec';
import { startTracing, tracingClientInterceptors } from '../tracing';
import type { NativeConnection } from '@temporalio/worker';

export interface TemporalTlsConfig {
  /** TEMPORAL_TLS_CLIENT_CERT_PATH: client certificate for mTLS. */
  clientCertPath?: string;
  /** TEMPORAL_TLS_CLIENT_KEY_PATH: client private key for mTLS. */
  clientKeyPath?: string;
  /** TEMPORAL_TLS_SERVER_CA_CERT_PATH: CA that signed the server's certificate (default: system roots). */
  serverCaCertPath?: string;
  /** TEMPORAL_TLS_SERVER_NAME: SNI / host name to verify instead of the address's host. */
  serverName?: string;
}

export interface TemporalConnectionConfig {
  /** TEMPORAL_ADDRESS, default `localhost:7233`. */
  address: string;
  /** TEMPORAL_NAMESPACE, default `default`. */
  namespace: string;
  /** TEMPORAL_API_KEY. */
  apiKey?: string;
  /**
   * TEMPORAL_TLS (`true`/`false`). Off unless set, or unless an API key or a TLS file is given,
   * which turn it on (as Temporal's own clients do). `false` means plain text.
   */
  tls: TemporalTlsConfig | false;
  /** How long to try to connect before giving up. Default 5000 ms. */
  connectTimeoutMs: number;
}

export interface ConnectionOverrides {
  address?: string;
  namespace?: string;
  apiKey?: string;
  /** `true` for TLS with defaults, `false` for plain text, or TLS settings (merged over env). */
  tls?: boolean | TemporalTlsConfig;
  connectTimeoutMs?: number;
}

export const DEFAULT_TEMPORAL_ADDRESS = 'localhost:7233';
export const DEFAULT_TEMPORAL_NAMESPACE = 'default';

function parseBool(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new Error(`${name}=${value} is not a boolean (use true or false).`);
}

const definedOnly = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;

/** Settings from `overrides`, then env vars, then defaults. */
export function loadConnectionConfig(
  overrides: ConnectionOverrides = {},
  env: NodeJS.ProcessEnv = process.env,
): TemporalConnectionConfig {
  const apiKey = overrides.apiKey ?? (env.TEMPORAL_API_KEY || undefined);
  const envTls: TemporalTlsConfig = definedOnly({
    clientCertPath: env.TEMPORAL_TLS_CLIENT_CERT_PATH,
    clientKeyPath: env.TEMPORAL_TLS_CLIENT_KEY_PATH,
    serverCaCertPath: env.TEMPORAL_TLS_SERVER_CA_CERT_PATH,
    serverName: env.TEMPORAL_TLS_SERVER_NAME,
  });
  const explicitTls = typeof overrides.tls === 'object' ? definedOnly(overrides.tls) : {};
  const tlsSettings = { ...envTls, ...explicitTls };
  const tlsOn =
    typeof overrides.tls === 'boolean'
      ? overrides.tls
      : typeof overrides.tls === 'object'
        ? true
        : (parseBool('TEMPORAL_TLS', env.TEMPORAL_TLS) ?? (apiKey !== undefined || Object.keys(envTls).length > 0));

  if (tlsOn && Boolean(tlsSettings.clientCertPath) !== Boolean(tlsSettings.clientKeyPath)) {
    throw new Error(
      'TLS client certificate and key go together: set both TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH, or neither.',
    );
  }
  const timeoutFromEnv = env.TEMPORAL_CONNECT_TIMEOUT_MS ? Number(env.TEMPORAL_CONNECT_TIMEOUT_MS) : undefined;
  return {
    address: overrides.address || env.TEMPORAL_ADDRESS || DEFAULT_TEMPORAL_ADDRESS,
    namespace: overrides.namespace || env.TEMPORAL_NAMESPACE || DEFAULT_TEMPORAL_NAMESPACE,
    ...(apiKey !== undefined ? { apiKey } : {}),
    tls: tlsOn ? tlsSettings : false,
    connectTimeoutMs: overrides.connectTimeoutMs ?? (Number.isFinite(timeoutFromEnv) ? timeoutFromEnv! : 5_000),
  };
}

/** The server could not be reached. The message is one line saying where and what to do. */
export class TemporalUnavailableError extends DurableAgentError {
  constructor(
    readonly address: string,
    readonly reason: string,
    cause?: unknown,
  ) {
    super(
      'SERVER_UNREACHABLE',
      `Cannot reach Temporal at ${address}: ${reason}. Start one with \`durable-agent up\` (in the background), \`durable-agent dev\` or \`temporal server start-dev\`, or set TEMPORAL_ADDRESS.`,
      cause === undefined ? undefined : { cause },
    );
  }
}

function readFile(what: string, file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    throw new Error(`Cannot read ${what} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** The SDK's TLS option for a config (files read now). */
export function toSdkTls(config: TemporalConnectionConfig): TLSConfig | false {
  if (config.tls === false) return false;
  const t = config.tls;
  return {
    ...(t.serverName ? { serverNameOverride: t.serverName } : {}),
    ...(t.serverCaCertPath
      ? { serverRootCACertificate: readFile('TLS server CA certificate', t.serverCaCertPath) }
      : {}),
    ...(t.clientCertPath && t.clientKeyPath
      ? {
          clientCertPair: {
            crt: readFile('TLS client certificate', t.clientCertPath),
            key: readFile('TLS client key', t.clientKeyPath),
          },
        }
      : {}),
  };
}

function splitAddress(address: string): { host: string; port: number } {
  const m = /^\[(.+)\]:(\d+)$/.exec(address) ?? /^([^:]+):(\d+)$/.exec(address);
  if (m) return { host: m[1]!, port: Number(m[2]) };
  return { host: address.replace(/^\[|\]$/g, ''), port: 7233 };
}

/**
 * A TCP connect first: it fails in milliseconds with a precise reason (refused, unknown host),
 * where gRPC would retry until its deadline and then say only "deadline exceeded".
 */
function tcpProbe(address: string, timeoutMs: number): Promise<string | undefined> {
  // Behind a proxy the target may be unreachable directly yet fine through the proxy.
  if (process.env.grpc_proxy || process.env.https_proxy || process.env.HTTPS_PROXY) return Promise.resolve(undefined);
  const { host, port } = splitAddress(address);
  return new Promise((resolve) => {
    const sock = net.connect({ host, port });
    const done = (reason: string | undefined): void => {
      sock.destroy();
      resolve(reason);
    };
    sock.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs} ms`));
    sock.once('connect', () => done(undefined));
    sock.once('error', (err: NodeJS.ErrnoException) => done(describeNetError(err)));
  });
}

function describeNetError(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'unknown host';
    case 'ETIMEDOUT':
      return 'connection timed out';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    default:
      return err.code ?? firstLine(err.message);
  }
}

const firstLine = (s: string): string => (s.split('\n')[0] ?? '').trim();

function unavailable(config: TemporalConnectionConfig, err: unknown): Error {
  if (err instanceof TemporalUnavailableError) return err;
  const msg = firstLine(err instanceof Error ? err.message : String(err));
  const reason = /refused/i.test(msg)
    ? 'connection refused'
    : /deadline/i.test(msg)
      ? `no answer within ${config.connectTimeoutMs} ms`
      : msg || 'unknown error';
  return new TemporalUnavailableError(config.address, reason, err);
}

async function withDeadline<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`deadline of ${ms} ms exceeded`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A client `Connection` and `Client` for `config`; fails fast with `TemporalUnavailableError`. The
 * client encrypts and decrypts payloads with the configured keys (`encryption`, else
 * DURABLE_AGENT_ENCRYPTION_KEY_FILE; docs/encryption.md); bad key material fails before connecting.
 */
export async function connectClient(
  config: TemporalConnectionConfig = loadConnectionConfig(),
  opts: { encryption?: EncryptionSetting } = {},
): Promise<{ connection: Connection; client: Client }> {
  const payloadCodecs = encryptionCodecs(opts.encryption);
  // Traces when OTEL_* ask for them (docs/deployment.md "Traces"): a session's trace starts here. A
  // value we cannot honour fails here, before connecting, like bad key material.
  const tracing = withTracing();
  const probe = await tcpProbe(config.address, config.connectTimeoutMs);
  if (probe) throw new TemporalUnavailableError(config.address, probe);
  let connection: Connection;
  try {
    connection = await Connection.connect({
      address: config.address,
      tls: toSdkTls(config),
      ...(config.apiKey ? { apiKey: config.apiKey } : {}),
      connectTimeout: config.connectTimeoutMs,
    });
  } catch (err) {
    throw unavailable(config, err);
  }
  return {
    connection,
    client: new Client({
      connection,
      namespace: config.namespace,
      dataConverter: { payloadCodecs },
      ...tracing,
    }),
  };
}

function withTracing(): { interceptors?: ClientInterceptors } {
  const interceptors = tracingClientInterceptors(startTracing());
  return interceptors ? { interceptors } : {};
}

/** A worker `NativeConnection` for `config`; fails fast with `TemporalUnavailableError`. */
export async function connectWorker(
  config: TemporalConnectionConfig = loadConnectionConfig(),
): Promise<NativeConnection> {
  const probe = await tcpProbe(config.address, config.connectTimeoutMs);
  if (probe) throw new TemporalUnavailableError(config.address, probe);
  // Loaded here, not at the top: a client (durable-agent/client) never loads the worker package.
  const { NativeConnection: Native } = await import('@temporalio/worker');
  const pending = Native.connect({
    address: config.address,
    tls: toSdkTls(config),
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
  });
  try {
    return await withDeadline(pending, config.connectTimeoutMs);
  } catch (err) {
    // If it connects after we gave up, close it so it does not keep the process alive.
    pending.then((c) => c.close()).catch(() => undefined);
    throw unavailable(config, err);
  }
}
