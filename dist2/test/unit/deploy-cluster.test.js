"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: docker-compose.yml and test:cluster (test/cluster/) run the same Temporal: the image tags
// name the server release the test builds, both read deploy/temporal/server.env (history shards,
// SQL plugin, database names, the dynamic config's path) and deploy/temporal/dynamicconfig.yaml,
// and the test's server config (deploy/temporal/cluster.yaml) reads every setting of server.env.
// With the server binary built (CI builds it before the tests) the binary itself checks the files:
// its version, its validation of the dynamic config, its rendering of cluster.yaml.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const systemPackages_1 = require("../support/systemPackages");
const cluster_1 = require("../cluster/cluster");
const server_1 = require("../cluster/server");
const yamlProbe = () => (0, node_child_process_1.spawnSync)('python3', ['-c', 'import yaml'], { encoding: 'utf8', timeout: 30_000 }).status === 0
    ? 'python3-yaml'
    : undefined;
const pyyaml = (0, systemPackages_1.requireSystemPackage)({
    command: 'python3',
    debianPackage: 'python3-yaml',
    usedBy: 'the compose/cluster drift check (deploy-cluster.test)',
    probe: yamlProbe,
});
/** docker-compose.yml as written (not rendered: env_file stays a reference), through python3-yaml. */
function composeServices() {
    const r = (0, node_child_process_1.spawnSync)('python3', ['-c', 'import sys, json, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)'], {
        input: (0, node_fs_1.readFileSync)((0, node_path_1.join)(cluster_1.REPO_ROOT, 'docker-compose.yml'), 'utf8'),
        encoding: 'utf8',
        timeout: 30_000,
    });
    strict_1.default.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout).services;
}
const envOf = (s) => Array.isArray(s.environment)
    ? Object.fromEntries(s.environment.map((e) => [e.split('=')[0], e.slice(e.indexOf('=') + 1)]))
    : (s.environment ?? {});
(0, node_test_1.test)('unit: docker-compose.yml pins the Temporal release test:cluster builds and runs', { skip: pyyaml.skip }, () => {
    pyyaml.assert();
    const services = composeServices();
    strict_1.default.equal(services.temporal?.image, `temporalio/auto-setup:${server_1.TEMPORAL_SERVER_VERSION}`, 'the temporal image is the release test/cluster/server.ts builds');
    strict_1.default.match(services['temporal-admin-tools']?.image ?? '', new RegExp(`^temporalio/admin-tools:${server_1.TEMPORAL_SERVER_VERSION.replace(/\./g, '\\.')}-`), 'admin-tools is tagged with the same release');
});
(0, node_test_1.test)('unit: docker-compose.yml and test:cluster read the same server.env and dynamic config file', { skip: pyyaml.skip }, () => {
    pyyaml.assert();
    const temporal = composeServices().temporal;
    const envFiles = [temporal.env_file ?? []].flat().map((f) => (0, node_path_1.resolve)(cluster_1.REPO_ROOT, f));
    strict_1.default.deepEqual(envFiles, [cluster_1.SERVER_ENV_FILE], 'the temporal service reads deploy/temporal/server.env, the file test:cluster reads');
    const shared = (0, cluster_1.readEnvFile)(cluster_1.SERVER_ENV_FILE);
    // Nothing in the compose file overrides a shared setting (it would run another shard count, say).
    for (const key of Object.keys(envOf(temporal)))
        strict_1.default.ok(!(key in shared), `docker-compose.yml sets ${key} itself; it belongs in ${(0, node_path_1.relative)(cluster_1.REPO_ROOT, cluster_1.SERVER_ENV_FILE)} only`);
    const shards = Number(shared.NUM_HISTORY_SHARDS);
    strict_1.default.ok(Number.isInteger(shards) && shards >= 8, `NUM_HISTORY_SHARDS=${shared.NUM_HISTORY_SHARDS}: a production-shaped cluster has at least 8`);
    strict_1.default.equal(shared.DB, 'postgres12');
    // The dynamic config: compose mounts the file the test passes, where server.env says the server reads it.
    const mounts = (temporal.volumes ?? []).map((v) => typeof v === 'string'
        ? { source: v.split(':')[0] ?? '', target: v.split(':')[1] ?? '' }
        : { source: v.source ?? '', target: v.target ?? '' });
    const dyn = mounts.find((m) => (0, node_path_1.resolve)(cluster_1.REPO_ROOT, m.source) === cluster_1.DYNAMIC_CONFIG_FILE);
    strict_1.default.ok(dyn, `the temporal service mounts ${(0, node_path_1.relative)(cluster_1.REPO_ROOT, cluster_1.DYNAMIC_CONFIG_FILE)}`);
    strict_1.default.equal(dyn.target, `/etc/temporal/${shared.DYNAMIC_CONFIG_FILE_PATH}`, "mounted where DYNAMIC_CONFIG_FILE_PATH (server.env) points, relative to the image's /etc/temporal");
});
(0, node_test_1.test)('unit: deploy/temporal/cluster.yaml reads every setting of server.env', () => {
    const template = (0, node_fs_1.readFileSync)(cluster_1.CLUSTER_CONFIG_FILE, 'utf8');
    strict_1.default.match(template.slice(0, 1024), /^# enable-template/m, 'the server renders it itself');
    for (const key of Object.keys((0, cluster_1.readEnvFile)(cluster_1.SERVER_ENV_FILE)))
        strict_1.default.match(template, new RegExp(`env "${key}"`), `cluster.yaml ignores ${key} of server.env`);
});
const built = (0, server_1.cachedServer)();
const binarySkip = built.ok || (0, systemPackages_1.isCI)() ? false : `the Temporal server is not built: ${built.why}`;
(0, node_test_1.test)('unit: the built server is the pinned release and accepts deploy/temporal (dynamic config, cluster.yaml)', { skip: binarySkip }, () => {
    strict_1.default.ok(built.ok, built.ok ? '' : `under CI the server is built before the tests (.ci/run phase "temporal server"): ${built.why}`);
    const bin = built.bin;
    const version = (0, node_child_process_1.spawnSync)(bin.server, ['--version'], { encoding: 'utf8', timeout: 30_000 });
    strict_1.default.equal(version.stdout.trim(), `temporal version ${server_1.TEMPORAL_SERVER_VERSION}`);
    // Every key of the dynamic config is one this release knows, with a value of its type.
    const validate = (0, node_child_process_1.spawnSync)(bin.server, ['validate-dynamic-config', cluster_1.DYNAMIC_CONFIG_FILE], {
        encoding: 'utf8',
        timeout: 30_000,
    });
    strict_1.default.equal(validate.status, 0, validate.stdout + validate.stderr);
    strict_1.default.doesNotMatch(validate.stdout, /error|warning/, validate.stdout);
    // cluster.yaml renders with server.env's values, and refuses to render without them.
    const render = (env) => (0, node_child_process_1.spawnSync)(bin.server, ['--config', (0, node_path_1.relative)(cluster_1.REPO_ROOT, (0, node_path_1.join)(cluster_1.DEPLOY_DIR, 'temporal')), '--env', 'cluster', 'render-config'], {
        cwd: cluster_1.REPO_ROOT,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
        encoding: 'utf8',
        timeout: 30_000,
    });
    const shared = (0, cluster_1.readEnvFile)(cluster_1.SERVER_ENV_FILE);
    const ok = render({ ...shared, POSTGRES_SEEDS: '127.0.0.1', DYNAMIC_CONFIG_FILE_PATH: cluster_1.DYNAMIC_CONFIG_FILE });
    strict_1.default.equal(ok.status, 0, ok.stderr);
    strict_1.default.match(ok.stdout, new RegExp(`numHistoryShards: ${shared.NUM_HISTORY_SHARDS}\\b`));
    strict_1.default.match(ok.stdout, new RegExp(`pluginName: ${shared.DB}\\b`));
    strict_1.default.ok(ok.stdout.includes(`filepath: ${cluster_1.DYNAMIC_CONFIG_FILE}`), 'the dynamic config file is the one compose mounts');
    const { NUM_HISTORY_SHARDS: _dropped, ...withoutShards } = shared;
    const bad = render({ ...withoutShards, POSTGRES_SEEDS: '127.0.0.1' });
    strict_1.default.notEqual(bad.status, 0);
    strict_1.default.match(bad.stdout + bad.stderr, /NUM_HISTORY_SHARDS is not set \(deploy\/temporal\/server\.env/);
});
//# sourceMappingURL=deploy-cluster.test.js.map