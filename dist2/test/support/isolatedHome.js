"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.testDataHome = void 0;
// Tests never touch the user's data directory (~/.durable-agent: the store, user settings, the
// control-file manifests, a dev server's database). scripts/run-tests.mjs gives every run a temp
// DURABLE_AGENT_HOME; a test file run some other way (`node --test dist/test/…`) gets one here,
// from the first support module it imports (the CLI helper, the Temporal harness), for itself and
// for every process it starts. A test that sets its own DURABLE_AGENT_HOME keeps it.
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
if (!process.env.DURABLE_AGENT_HOME) {
    const home = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-test-home-'));
    process.env.DURABLE_AGENT_HOME = home;
    process.on('exit', () => (0, node_fs_1.rmSync)(home, { recursive: true, force: true }));
}
/** The data directory this test process uses (never the user's own). */
const testDataHome = () => process.env.DURABLE_AGENT_HOME;
exports.testDataHome = testDataHome;
//# sourceMappingURL=isolatedHome.js.map