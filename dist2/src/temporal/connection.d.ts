import { DurableAgentError } from '../engine/errors';
import { Client, Connection, type TLSConfig } from '@temporalio/client';
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
export declare const DEFAULT_TEMPORAL_ADDRESS = "localhost:7233";
export declare const DEFAULT_TEMPORAL_NAMESPACE = "default";
/** Settings from `overrides`, then env vars, then defaults. */
export declare function loadConnectionConfig(overrides?: ConnectionOverrides, env?: NodeJS.ProcessEnv): TemporalConnectionConfig;
/** The server could not be reached. The message is one line saying where and what to do. */
export declare class TemporalUnavailableError extends DurableAgentError {
    readonly address: string;
    readonly reason: string;
    constructor(address: string, reason: string, cause?: unknown);
}
/** The SDK's TLS option for a config (files read now). */
export declare function toSdkTls(config: TemporalConnectionConfig): TLSConfig | false;
/** A client `Connection` and `Client` for `config`; fails fast with `TemporalUnavailableError`. */
export declare function connectClient(config?: TemporalConnectionConfig): Promise<{
    connection: Connection;
    client: Client;
}>;
/** A worker `NativeConnection` for `config`; fails fast with `TemporalUnavailableError`. */
export declare function connectWorker(config?: TemporalConnectionConfig): Promise<NativeConnection>;
