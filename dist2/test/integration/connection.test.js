"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Integration: connecting to an address where no Temporal listens fails fast with one clear line.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const connection_1 = require("../../src/temporal/connection");
for (const [name, connect] of [
    ['connectClient', connection_1.connectClient],
    ['connectWorker', connection_1.connectWorker],
]) {
    (0, node_test_1.test)(`integration: ${name} to an unreachable address throws TemporalUnavailableError`, async () => {
        const config = (0, connection_1.loadConnectionConfig)({ address: '127.0.0.1:1', connectTimeoutMs: 3_000 }, {});
        const started = Date.now();
        await strict_1.default.rejects(connect(config), (err) => {
            strict_1.default.ok(err instanceof connection_1.TemporalUnavailableError, `got ${String(err)}`);
            strict_1.default.equal(err.address, '127.0.0.1:1');
            strict_1.default.ok(!err.message.includes('\n'), `message is not one line: ${err.message}`);
            strict_1.default.match(err.message, /127\.0\.0\.1:1/);
            strict_1.default.match(err.message, /temporal server start-dev|TEMPORAL_ADDRESS/);
            return true;
        });
        strict_1.default.ok(Date.now() - started < 5_000, 'did not fail fast');
    });
}
(0, node_test_1.test)('integration: connectClient reaches the test server', { skip: !process.env.TEMPORAL_TEST_ADDRESS && 'no TEMPORAL_TEST_ADDRESS' }, async () => {
    const { connection, client } = await (0, connection_1.connectClient)((0, connection_1.loadConnectionConfig)({ address: process.env.TEMPORAL_TEST_ADDRESS }, {}));
    try {
        const info = await client.workflowService.getSystemInfo({});
        strict_1.default.ok(info.capabilities);
    }
    finally {
        await connection.close();
    }
});
//# sourceMappingURL=connection.test.js.map