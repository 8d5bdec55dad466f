"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: a test that needs a missing system package skips with an install hint on a developer's
// machine, and fails under CI; the skip is reported for the runner's summary line.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const systemPackages_1 = require("../support/systemPackages");
async function withEnv(vars, fn) {
    const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
    for (const [k, v] of Object.entries(vars))
        if (v === undefined)
            delete process.env[k];
        else
            process.env[k] = v;
    try {
        return await fn();
    }
    finally {
        for (const [k, v] of Object.entries(saved))
            if (v === undefined)
                delete process.env[k];
            else
                process.env[k] = v;
    }
}
const missing = { command: 'da-no-such-command-x1', debianPackage: 'da-pkg', usedBy: 'the x1 test' };
(0, node_test_1.test)('unit: a missing package skips with the install hint outside CI and is reported for the summary line', async () => {
    const dir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-syspkg-'));
    const file = (0, node_path_1.join)(dir, 'skipped.txt');
    await withEnv({ CI: undefined, DURABLE_AGENT_SKIPPED_FILE: file }, async () => {
        const r = (0, systemPackages_1.requireSystemPackage)(missing);
        strict_1.default.equal(r.found, false);
        strict_1.default.equal(typeof r.skip, 'string');
        strict_1.default.match(r.skip, /da-no-such-command-x1 not found: install Debian's da-pkg \(apt-get install -y da-pkg/);
        strict_1.default.throws(() => r.assert(), /apt-get install -y da-pkg/);
        strict_1.default.equal(await (0, promises_1.readFile)(file, 'utf8'), 'the x1 test (da-no-such-command-x1 missing: apt-get install -y da-pkg)\n');
    });
});
(0, node_test_1.test)('unit: under CI a missing package does not skip: assert() fails the test', async () => {
    for (const ci of ['true', '1']) {
        await withEnv({ CI: ci, DURABLE_AGENT_SKIPPED_FILE: undefined }, () => {
            strict_1.default.equal((0, systemPackages_1.isCI)(), true);
            const r = (0, systemPackages_1.requireSystemPackage)(missing);
            strict_1.default.equal(r.skip, false);
            strict_1.default.throws(() => r.assert(), /CI=true: a missing system package fails the test/);
        });
    }
    await withEnv({ CI: 'false' }, () => strict_1.default.equal((0, systemPackages_1.isCI)(), false));
});
(0, node_test_1.test)('unit: an opt-out variable skips even under CI; a present package neither skips nor throws', async () => {
    await withEnv({ CI: 'true', DA_X1_SKIP: '1' }, () => {
        strict_1.default.equal((0, systemPackages_1.requireSystemPackage)({ ...missing, optOutEnv: 'DA_X1_SKIP' }).skip, 'DA_X1_SKIP=1');
    });
    const sh = (0, systemPackages_1.findExecutable)('sh');
    strict_1.default.ok(sh && sh.endsWith('/sh'));
    await withEnv({ CI: undefined }, () => {
        const r = (0, systemPackages_1.requireSystemPackage)({ command: 'sh', debianPackage: 'dash', usedBy: 'shells' });
        strict_1.default.equal(r.found, true);
        strict_1.default.equal(r.path, sh);
        strict_1.default.equal(r.skip, false);
        r.assert();
        strict_1.default.equal((0, systemPackages_1.requireSystemPackage)({ ...missing, probe: () => '/opt/x1' }).found, true);
    });
});
//# sourceMappingURL=systemPackages.test.js.map