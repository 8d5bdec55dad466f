"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.TemporalUnavailableError = exports.DEFAULT_TEMPORAL_NAMESPACE = exports.DEFAULT_TEMPORAL_ADDRESS = void 0;
exports.loadConnectionConfig = loadConnectionConfig;
exports.toSdkTls = toSdkTls;
exports.connectClient = connectClient;
exports.connectWorker = connectWorker;
// The one place Temporal connection settings come from (env vars, Temporal's names) and the
// one way the client and the worker connect. Explicit options beat env vars.
const errors_1 = require("../engine/errors");
const fs = __importStar(require("node:fs"));
const net = __importStar(require("node:net"));
const client_1 = require("@temporalio/client");
exports.DEFAULT_TEMPORAL_ADDRESS = 'localhost:7233';
exports.DEFAULT_TEMPORAL_NAMESPACE = 'default';
function parseBool(name, value) {
    if (value === undefined || value === '')
        return undefined;
    const v = value.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(v))
        return true;
    if (['0', 'false', 'no', 'off'].includes(v))
        return false;
    throw new Error(`${name}=${value} is not a boolean (use true or false).`);
}
const definedOnly = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== ''));
/** Settings from `overrides`, then env vars, then defaults. */
function loadConnectionConfig(overrides = {}, env = process.env) {
    const apiKey = overrides.apiKey ?? (env.TEMPORAL_API_KEY || undefined);
    const envTls = definedOnly({
        clientCertPath: env.TEMPORAL_TLS_CLIENT_CERT_PATH,
        clientKeyPath: env.TEMPORAL_TLS_CLIENT_KEY_PATH,
        serverCaCertPath: env.TEMPORAL_TLS_SERVER_CA_CERT_PATH,
        serverName: env.TEMPORAL_TLS_SERVER_NAME,
    });
    const explicitTls = typeof overrides.tls === 'object' ? definedOnly(overrides.tls) : {};
    const tlsSettings = { ...envTls, ...explicitTls };
    const tlsOn = typeof overrides.tls === 'boolean'
        ? overrides.tls
        : typeof overrides.tls === 'object'
            ? true
            : (parseBool('TEMPORAL_TLS', env.TEMPORAL_TLS) ?? (apiKey !== undefined || Object.keys(envTls).length > 0));
    if (tlsOn && Boolean(tlsSettings.clientCertPath) !== Boolean(tlsSettings.clientKeyPath)) {
        throw new Error('TLS client certificate and key go together: set both TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH, or neither.');
    }
    const timeoutFromEnv = env.TEMPORAL_CONNECT_TIMEOUT_MS ? Number(env.TEMPORAL_CONNECT_TIMEOUT_MS) : undefined;
    return {
        address: overrides.address || env.TEMPORAL_ADDRESS || exports.DEFAULT_TEMPORAL_ADDRESS,
        namespace: overrides.namespace || env.TEMPORAL_NAMESPACE || exports.DEFAULT_TEMPORAL_NAMESPACE,
        ...(apiKey !== undefined ? { apiKey } : {}),
        tls: tlsOn ? tlsSettings : false,
        connectTimeoutMs: overrides.connectTimeoutMs ?? (Number.isFinite(timeoutFromEnv) ? timeoutFromEnv : 5_000),
    };
}
/** The server could not be reached. The message is one line saying where and what to do. */
class TemporalUnavailableError extends errors_1.DurableAgentError {
    address;
    reason;
    constructor(address, reason, cause) {
        super('SERVER_UNREACHABLE', `Cannot reach Temporal at ${address}: ${reason}. Start one with \`durable-agent up\` (in the background), \`durable-agent dev\` or \`temporal server start-dev\`, or set TEMPORAL_ADDRESS.`, cause === undefined ? undefined : { cause });
        this.address = address;
        this.reason = reason;
    }
}
exports.TemporalUnavailableError = TemporalUnavailableError;
function readFile(what, file) {
    try {
        return fs.readFileSync(file);
    }
    catch (err) {
        throw new Error(`Cannot read ${what} ${file}: ${err.code ?? err.message}`);
    }
}
/** The SDK's TLS option for a config (files read now). */
function toSdkTls(config) {
    if (config.tls === false)
        return false;
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
function splitAddress(address) {
    const m = /^\[(.+)\]:(\d+)$/.exec(address) ?? /^([^:]+):(\d+)$/.exec(address);
    if (m)
        return { host: m[1], port: Number(m[2]) };
    return { host: address.replace(/^\[|\]$/g, ''), port: 7233 };
}
/**
 * A TCP connect first: it fails in milliseconds with a precise reason (refused, unknown host),
 * where gRPC would retry until its deadline and then say only "deadline exceeded".
 */
function tcpProbe(address, timeoutMs) {
    // Behind a proxy the target may be unreachable directly yet fine through the proxy.
    if (process.env.grpc_proxy || process.env.https_proxy || process.env.HTTPS_PROXY)
        return Promise.resolve(undefined);
    const { host, port } = splitAddress(address);
    return new Promise((resolve) => {
        const sock = net.connect({ host, port });
        const done = (reason) => {
            sock.destroy();
            resolve(reason);
        };
        sock.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs} ms`));
        sock.once('connect', () => done(undefined));
        sock.once('error', (err) => done(describeNetError(err)));
    });
}
function describeNetError(err) {
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
const firstLine = (s) => (s.split('\n')[0] ?? '').trim();
function unavailable(config, err) {
    if (err instanceof TemporalUnavailableError)
        return err;
    const msg = firstLine(err instanceof Error ? err.message : String(err));
    const reason = /refused/i.test(msg)
        ? 'connection refused'
        : /deadline/i.test(msg)
            ? `no answer within ${config.connectTimeoutMs} ms`
            : msg || 'unknown error';
    return new TemporalUnavailableError(config.address, reason, err);
}
async function withDeadline(p, ms) {
    let timer;
    const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`deadline of ${ms} ms exceeded`)), ms);
    });
    try {
        return await Promise.race([p, timeout]);
    }
    finally {
        clearTimeout(timer);
    }
}
/** A client `Connection` and `Client` for `config`; fails fast with `TemporalUnavailableError`. */
async function connectClient(config = loadConnectionConfig()) {
    const probe = await tcpProbe(config.address, config.connectTimeoutMs);
    if (probe)
        throw new TemporalUnavailableError(config.address, probe);
    let connection;
    try {
        connection = await client_1.Connection.connect({
            address: config.address,
            tls: toSdkTls(config),
            ...(config.apiKey ? { apiKey: config.apiKey } : {}),
            connectTimeout: config.connectTimeoutMs,
        });
    }
    catch (err) {
        throw unavailable(config, err);
    }
    return { connection, client: new client_1.Client({ connection, namespace: config.namespace }) };
}
/** A worker `NativeConnection` for `config`; fails fast with `TemporalUnavailableError`. */
async function connectWorker(config = loadConnectionConfig()) {
    const probe = await tcpProbe(config.address, config.connectTimeoutMs);
    if (probe)
        throw new TemporalUnavailableError(config.address, probe);
    // Loaded here, not at the top: a client (durable-agent/client) never loads the worker package.
    const { NativeConnection: Native } = await Promise.resolve().then(() => __importStar(require('@temporalio/worker')));
    const pending = Native.connect({
        address: config.address,
        tls: toSdkTls(config),
        ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    });
    try {
        return await withDeadline(pending, config.connectTimeoutMs);
    }
    catch (err) {
        // If it connects after we gave up, close it so it does not keep the process alive.
        pending.then((c) => c.close()).catch(() => undefined);
        throw unavailable(config, err);
    }
}
//# sourceMappingURL=connection.js.map