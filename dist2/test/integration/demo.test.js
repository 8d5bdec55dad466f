"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: the README's first command, as a newcomer runs it — `durable-agent demo` on the
// embedded default with no API key: a finished session, the UI address, the audit trail.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const devServer_1 = require("../../src/temporal/devServer");
const cli_1 = require("../support/cli");
(0, node_test_1.test)('integration: `durable-agent demo --exit` shows a finished demo session, its UI address and the audit trail', { timeout: 180_000 }, async () => {
    const home = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-demo-'));
    const env = {
        DURABLE_AGENT_HOME: home,
        DURABLE_AGENT_STORE_DIR: (0, node_path_1.join)(home, 'store'),
        ANTHROPIC_API_KEY: undefined,
        DURABLE_AGENT_TASK_QUEUE: undefined,
        TEMPORAL_ADDRESS: undefined,
    };
    const port = await (0, devServer_1.freePort)();
    const uiPort = await (0, devServer_1.freePort)();
    const r = await (0, cli_1.cli)(['demo', '--exit', '--db', (0, node_path_1.join)(home, 'temporal.db'), '--port', String(port), '--ui-port', String(uiPort)], env, 150_000);
    strict_1.default.equal(r.code, 0, r.stdout + r.stderr);
    strict_1.default.match(r.stdout, /scripted demo model .*not Claude/);
    strict_1.default.match(r.stdout, new RegExp(`ui: +http://127\\.0\\.0\\.1:${uiPort}`));
    strict_1.default.match(r.stdout, /approval needed: Edit src\/stats\.js/);
    strict_1.default.match(r.stdout, /session completed/);
    strict_1.default.match(r.stdout, /audit trail/);
    // The parallel batch of turn 1, the human approval and the passing test run are in the ledger.
    strict_1.default.match(r.stdout, /batch 0 ∥/);
    strict_1.default.match(r.stdout, /human: demo \(auto-approve\)/);
    strict_1.default.match(r.stdout, /all tests passed/);
    strict_1.default.match(r.stdout, new RegExp(`UI: http://127\\.0\\.0\\.1:${uiPort}/namespaces/default/workflows/session-`));
});
//# sourceMappingURL=demo.test.js.map