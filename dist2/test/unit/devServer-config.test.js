"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the dynamic config the dev server (durable-agent dev, the test server, the bench) starts
// with, and the production server's dynamic config keeping the same latency settings.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const devServer_1 = require("../../src/temporal/devServer");
function pairs(args) {
    const out = {};
    for (let i = 0; i < args.length; i += 2) {
        strict_1.default.equal(args[i], '--dynamic-config-value');
        const [k, ...v] = args[i + 1].split('=');
        out[k] = v.join('=');
    }
    return out;
}
(0, node_test_1.test)('unit: the dev server gets the transfer-queue poll rate and eager activities by default', () => {
    const got = pairs((0, devServer_1.dynamicConfigArgs)());
    strict_1.default.equal(got['history.transferProcessorMaxPollRPS'], '1000');
    strict_1.default.equal(got['system.enableActivityEagerExecution'], 'true');
    strict_1.default.equal(Object.keys(got).length, Object.keys(devServer_1.DEV_SERVER_DYNAMIC_CONFIG).length);
});
(0, node_test_1.test)('unit: a caller overrides a default, drops one with null, and adds keys (values as JSON)', () => {
    const got = pairs((0, devServer_1.dynamicConfigArgs)({
        'history.transferProcessorMaxPollRPS': 20,
        'system.enableActivityEagerExecution': null,
        'frontend.namespaceCount': 'x',
    }));
    strict_1.default.deepEqual(got, { 'history.transferProcessorMaxPollRPS': '20', 'frontend.namespaceCount': '"x"' });
});
(0, node_test_1.test)('unit: the production dynamic config raises the transfer-queue poll rate and enables eager activities', () => {
    let dir = __dirname;
    while (!(0, node_fs_1.existsSync)((0, node_path_1.join)(dir, 'deploy', 'temporal', 'dynamicconfig.yaml'))) {
        const up = (0, node_path_1.dirname)(dir);
        strict_1.default.notEqual(up, dir, 'deploy/temporal/dynamicconfig.yaml not found');
        dir = up;
    }
    const yaml = (0, node_fs_1.readFileSync)((0, node_path_1.join)(dir, 'deploy', 'temporal', 'dynamicconfig.yaml'), 'utf8');
    const value = (key) => new RegExp(`^${key.replace(/\./g, '\\.')}:\\s*\\n\\s*-\\s*value:\\s*(\\S+)`, 'm').exec(yaml)?.[1];
    strict_1.default.ok(Number(value('history.transferProcessorMaxPollRPS')) >= 100, 'transferProcessorMaxPollRPS raised from the default 20');
    strict_1.default.equal(value('system.enableActivityEagerExecution'), 'true');
});
//# sourceMappingURL=devServer-config.test.js.map