"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: a reduced smoke of the load run (`npm run bench:load -- --smoke`): 4 concurrent
// sessions × 4 turns of real tools on two worker processes; the run prints its table and counts no
// failure. The full size (50 sessions × 20 turns, BENCHMARKS.md) is not run in CI.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_path_1 = require("node:path");
(0, node_test_1.test)('integration: bench:load --smoke on two workers completes every session and prints its table', { timeout: 300_000 }, async () => {
    const script = (0, node_path_1.join)(__dirname, '../../bench/load.js');
    const child = (0, node_child_process_1.spawn)(process.execPath, [script, '--smoke', '--workers', '2'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d.toString()));
    child.stderr.on('data', (d) => (err += d.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    strict_1.default.equal(code, 0, `exit ${code}\n${out}\n${err.slice(-3000)}`);
    strict_1.default.match(out, /^\| 2 \| 4 \/ 4 \| 0 \| \d+ \|/m, out);
    strict_1.default.match(out, /^failures: 0$/m);
    strict_1.default.match(out, /per turn: workflow tasks/);
});
//# sourceMappingURL=load-smoke.test.js.map