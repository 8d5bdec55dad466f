"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Unit: where Temporal connection settings come from (explicit > env > defaults).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const connection_1 = require("../../src/temporal/connection");
(0, node_test_1.test)('unit: defaults are localhost:7233, namespace default, plain text', () => {
    const c = (0, connection_1.loadConnectionConfig)({}, {});
    strict_1.default.equal(c.address, 'localhost:7233');
    strict_1.default.equal(c.namespace, 'default');
    strict_1.default.equal(c.tls, false);
    strict_1.default.equal(c.apiKey, undefined);
});
(0, node_test_1.test)('unit: env vars are read with Temporal names', () => {
    const c = (0, connection_1.loadConnectionConfig)({}, {
        TEMPORAL_ADDRESS: 'temporal.example:7233',
        TEMPORAL_NAMESPACE: 'jobs',
        TEMPORAL_TLS: 'true',
        TEMPORAL_TLS_SERVER_NAME: 'sni.example',
        TEMPORAL_TLS_SERVER_CA_CERT_PATH: '/ca.pem',
        TEMPORAL_TLS_CLIENT_CERT_PATH: '/c.pem',
        TEMPORAL_TLS_CLIENT_KEY_PATH: '/k.pem',
    });
    strict_1.default.equal(c.address, 'temporal.example:7233');
    strict_1.default.equal(c.namespace, 'jobs');
    strict_1.default.deepEqual(c.tls, {
        serverName: 'sni.example',
        serverCaCertPath: '/ca.pem',
        clientCertPath: '/c.pem',
        clientKeyPath: '/k.pem',
    });
});
(0, node_test_1.test)('unit: explicit options beat env vars', () => {
    const env = {
        TEMPORAL_ADDRESS: 'env:1',
        TEMPORAL_NAMESPACE: 'env-ns',
        TEMPORAL_API_KEY: 'env-key',
        TEMPORAL_TLS_SERVER_NAME: 'env-sni',
    };
    const c = (0, connection_1.loadConnectionConfig)({ address: 'opt:2', namespace: 'opt-ns', apiKey: 'opt-key', tls: { serverName: 'opt-sni' } }, env);
    strict_1.default.equal(c.address, 'opt:2');
    strict_1.default.equal(c.namespace, 'opt-ns');
    strict_1.default.equal(c.apiKey, 'opt-key');
    strict_1.default.deepEqual(c.tls, { serverName: 'opt-sni' });
    strict_1.default.equal((0, connection_1.loadConnectionConfig)({ tls: false }, env).tls, false);
});
(0, node_test_1.test)('unit: an API key or a TLS file turns TLS on unless TEMPORAL_TLS=false', () => {
    strict_1.default.deepEqual((0, connection_1.loadConnectionConfig)({}, { TEMPORAL_API_KEY: 'k' }).tls, {});
    strict_1.default.deepEqual((0, connection_1.loadConnectionConfig)({}, { TEMPORAL_TLS_SERVER_CA_CERT_PATH: '/ca.pem' }).tls, {
        serverCaCertPath: '/ca.pem',
    });
    strict_1.default.equal((0, connection_1.loadConnectionConfig)({}, { TEMPORAL_API_KEY: 'k', TEMPORAL_TLS: 'false' }).tls, false);
});
(0, node_test_1.test)('unit: bad TLS settings are reported, not guessed', () => {
    strict_1.default.throws(() => (0, connection_1.loadConnectionConfig)({}, { TEMPORAL_TLS: 'maybe' }), /TEMPORAL_TLS=maybe/);
    strict_1.default.throws(() => (0, connection_1.loadConnectionConfig)({}, { TEMPORAL_TLS_CLIENT_CERT_PATH: '/c.pem' }), /TEMPORAL_TLS_CLIENT_KEY_PATH/);
});
//# sourceMappingURL=connection.test.js.map