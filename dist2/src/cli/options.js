"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.identity = exports.collect = exports.positiveInt = exports.UsageError = void 0;
exports.connectionOverrides = connectionOverrides;
exports.addConnectionOptions = addConnectionOptions;
exports.addServerOptions = addServerOptions;
exports.withClient = withClient;
exports.sessionExists = sessionExists;
exports.print = print;
exports.waitForSignal = waitForSignal;
exports.followAndExit = followAndExit;
// The CLI's shared pieces: connection flags and the client they make, value parsers, output
// (text or --json), following a session until it ends or the user detaches.
const node_os_1 = require("node:os");
const commander_1 = require("commander");
const connection_1 = require("../temporal/connection");
const dataHome_1 = require("../stores/dataHome");
const errors_1 = require("../engine/errors");
const errors_2 = require("../temporal/errors");
const follow_1 = require("./follow");
const workerCheck_1 = require("./workerCheck");
const client_1 = require("../client");
class UsageError extends errors_1.DurableAgentError {
    constructor(message) {
        super('USAGE', message);
    }
}
exports.UsageError = UsageError;
function connectionOverrides(o) {
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
function addConnectionOptions(cmd) {
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
function addServerOptions(cmd) {
    return cmd
        .option('--db <file>', 'SQLite file the server persists to (env DURABLE_AGENT_DEV_DB; default: temporal.db in the data directory, $DURABLE_AGENT_HOME or ~/.durable-agent)', (0, dataHome_1.defaultDevDb)())
        .option('--port <n>', 'gRPC port of the server', (0, exports.positiveInt)('--port'), 7233)
        .option('--ui-port <n>', 'port of the Temporal UI', (0, exports.positiveInt)('--ui-port'), 8233);
}
async function withClient(o, fn) {
    const { connection, client } = await (0, connection_1.connectClient)((0, connection_1.loadConnectionConfig)(connectionOverrides(o)));
    try {
        return await fn(client);
    }
    finally {
        await connection.close().catch(() => undefined);
    }
}
/** Throws SessionNotFoundError unless the session's workflow exists. */
async function sessionExists(client, id) {
    try {
        await (0, client_1.sessionHandle)(client, id).describe();
    }
    catch (err) {
        if ((0, errors_2.isWorkflowNotFound)(err))
            throw new client_1.SessionNotFoundError(id);
        throw err;
    }
}
const positiveInt = (name) => (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1)
        throw new commander_1.InvalidArgumentError(`${name} must be a positive whole number`);
    return n;
};
exports.positiveInt = positiveInt;
const collect = (v, prev) => [...prev, v];
exports.collect = collect;
const identity = () => `${(0, node_os_1.userInfo)().username}@${(0, node_os_1.hostname)()}`;
exports.identity = identity;
function print(o, value, text) {
    process.stdout.write(`${o.json ? JSON.stringify(value) : text}\n`);
}
function waitForSignal() {
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
async function followAndExit(client, id, o) {
    const detach = waitForSignal();
    // Without a worker on the session's task queue it would wait silently: say so, once.
    const watch = (0, workerCheck_1.watchForWorker)(client, () => (0, client_1.runningSession)(client, id).then((s) => s.taskQueue, () => undefined));
    const outcome = await (0, follow_1.followSession)(client, id, { json: o.json ?? false, detach }).finally(() => watch.stop());
    if (outcome.kind === 'detached') {
        console.error(`\ndetached; the session keeps running.\n  re-attach:  durable-agent attach ${id}\n  interrupt:  durable-agent interrupt ${id}\n  cancel:     durable-agent cancel ${id}`);
        process.exitCode = 130;
        return 'detached';
    }
    process.exitCode = outcome.status === 'completed' ? 0 : 1;
    return 'ended';
}
//# sourceMappingURL=options.js.map