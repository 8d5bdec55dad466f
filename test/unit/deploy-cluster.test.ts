// unit: docker-compose.yml and test:cluster (test/cluster/) run the same Temporal: the image tags
// name the server release the test builds, both read deploy/temporal/server.env (history shards,
// SQL plugin, database names, the dynamic config's path) and deploy/temporal/dynamicconfig.yaml,
// and the test's server config (deploy/temporal/cluster.yaml) reads every setting of server.env.
// With the server binary built (CI builds it before the tests) the binary itself checks the files:
// its version, its validation of the dynamic config, its rendering of cluster.yaml.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { isCI, requireSystemPackage } from '../support/systemPackages';
import {
  CLUSTER_CONFIG_FILE,
  DEPLOY_DIR,
  DYNAMIC_CONFIG_FILE,
  readEnvFile,
  REPO_ROOT,
  SERVER_ENV_FILE,
} from '../cluster/cluster';
import { cachedServer, TEMPORAL_SERVER_VERSION } from '../cluster/server';

type Service = {
  image?: string;
  env_file?: string | string[];
  environment?: Record<string, string | null> | string[];
  volumes?: Array<string | { source?: string; target?: string }>;
};

const yamlProbe = (): string | undefined =>
  spawnSync('python3', ['-c', 'import yaml'], { encoding: 'utf8', timeout: 30_000 }).status === 0
    ? 'python3-yaml'
    : undefined;
const pyyaml = requireSystemPackage({
  command: 'python3',
  debianPackage: 'python3-yaml',
  usedBy: 'the compose/cluster drift check (deploy-cluster.test)',
  probe: yamlProbe,
});

/** docker-compose.yml as written (not rendered: env_file stays a reference), through python3-yaml. */
function composeServices(): Record<string, Service> {
  const r = spawnSync('python3', ['-c', 'import sys, json, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)'], {
    input: readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8'),
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(r.status, 0, r.stderr);
  return (JSON.parse(r.stdout) as { services: Record<string, Service> }).services;
}

const envOf = (s: Service): Record<string, string | null> =>
  Array.isArray(s.environment)
    ? Object.fromEntries(s.environment.map((e) => [e.split('=')[0]!, e.slice(e.indexOf('=') + 1)]))
    : (s.environment ?? {});

test('unit: docker-compose.yml pins the Temporal release test:cluster builds and runs', { skip: pyyaml.skip }, () => {
  pyyaml.assert();
  const services = composeServices();
  assert.equal(
    services.temporal?.image,
    `temporalio/auto-setup:${TEMPORAL_SERVER_VERSION}`,
    'the temporal image is the release test/cluster/server.ts builds',
  );
  assert.match(
    services['temporal-admin-tools']?.image ?? '',
    new RegExp(`^temporalio/admin-tools:${TEMPORAL_SERVER_VERSION.replace(/\./g, '\\.')}-`),
    'admin-tools is tagged with the same release',
  );
});

test(
  'unit: docker-compose.yml and test:cluster read the same server.env and dynamic config file',
  { skip: pyyaml.skip },
  () => {
    pyyaml.assert();
    const temporal = composeServices().temporal!;
    const envFiles = [temporal.env_file ?? []].flat().map((f) => resolve(REPO_ROOT, f));
    assert.deepEqual(
      envFiles,
      [SERVER_ENV_FILE],
      'the temporal service reads deploy/temporal/server.env, the file test:cluster reads',
    );
    const shared = readEnvFile(SERVER_ENV_FILE);
    // Nothing in the compose file overrides a shared setting (it would run another shard count, say).
    for (const key of Object.keys(envOf(temporal)))
      assert.ok(
        !(key in shared),
        `docker-compose.yml sets ${key} itself; it belongs in ${relative(REPO_ROOT, SERVER_ENV_FILE)} only`,
      );
    const shards = Number(shared.NUM_HISTORY_SHARDS);
    assert.ok(
      Number.isInteger(shards) && shards >= 8,
      `NUM_HISTORY_SHARDS=${shared.NUM_HISTORY_SHARDS}: a production-shaped cluster has at least 8`,
    );
    assert.equal(shared.DB, 'postgres12');
    // The dynamic config: compose mounts the file the test passes, where server.env says the server reads it.
    const mounts = (temporal.volumes ?? []).map((v) =>
      typeof v === 'string'
        ? { source: v.split(':')[0] ?? '', target: v.split(':')[1] ?? '' }
        : { source: v.source ?? '', target: v.target ?? '' },
    );
    const dyn = mounts.find((m) => resolve(REPO_ROOT, m.source) === DYNAMIC_CONFIG_FILE);
    assert.ok(dyn, `the temporal service mounts ${relative(REPO_ROOT, DYNAMIC_CONFIG_FILE)}`);
    assert.equal(
      dyn.target,
      `/etc/temporal/${shared.DYNAMIC_CONFIG_FILE_PATH}`,
      "mounted where DYNAMIC_CONFIG_FILE_PATH (server.env) points, relative to the image's /etc/temporal",
    );
  },
);

test('unit: deploy/temporal/cluster.yaml reads every setting of server.env', () => {
  const template = readFileSync(CLUSTER_CONFIG_FILE, 'utf8');
  assert.match(template.slice(0, 1024), /^# enable-template/m, 'the server renders it itself');
  for (const key of Object.keys(readEnvFile(SERVER_ENV_FILE)))
    assert.match(template, new RegExp(`env "${key}"`), `cluster.yaml ignores ${key} of server.env`);
});

const built = cachedServer();
const binarySkip = built.ok || isCI() ? false : `the Temporal server is not built: ${built.why}`;

test(
  'unit: the built server is the pinned release and accepts deploy/temporal (dynamic config, cluster.yaml)',
  { skip: binarySkip },
  () => {
    assert.ok(
      built.ok,
      built.ok ? '' : `under CI the server is built before the tests (.ci/run phase "temporal server"): ${built.why}`,
    );
    const bin = built.bin;
    const version = spawnSync(bin.server, ['--version'], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(version.stdout.trim(), `temporal version ${TEMPORAL_SERVER_VERSION}`);

    // Every key of the dynamic config is one this release knows, with a value of its type.
    const validate = spawnSync(bin.server, ['validate-dynamic-config', DYNAMIC_CONFIG_FILE], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(validate.status, 0, validate.stdout + validate.stderr);
    assert.doesNotMatch(validate.stdout, /error|warning/, validate.stdout);

    // cluster.yaml renders with server.env's values, and refuses to render without them.
    const render = (env: Record<string, string>) =>
      spawnSync(
        bin.server,
        ['--config', relative(REPO_ROOT, join(DEPLOY_DIR, 'temporal')), '--env', 'cluster', 'render-config'],
        {
          cwd: REPO_ROOT,
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
          encoding: 'utf8',
          timeout: 30_000,
        },
      );
    const shared = readEnvFile(SERVER_ENV_FILE);
    const ok = render({ ...shared, POSTGRES_SEEDS: '127.0.0.1', DYNAMIC_CONFIG_FILE_PATH: DYNAMIC_CONFIG_FILE });
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, new RegExp(`numHistoryShards: ${shared.NUM_HISTORY_SHARDS}\\b`));
    assert.match(ok.stdout, new RegExp(`pluginName: ${shared.DB}\\b`));
    assert.ok(
      ok.stdout.includes(`filepath: ${DYNAMIC_CONFIG_FILE}`),
      'the dynamic config file is the one compose mounts',
    );
    const { NUM_HISTORY_SHARDS: _dropped, ...withoutShards } = shared;
    const bad = render({ ...withoutShards, POSTGRES_SEEDS: '127.0.0.1' });
    assert.notEqual(bad.status, 0);
    assert.match(bad.stdout + bad.stderr, /NUM_HISTORY_SHARDS is not set \(deploy\/temporal\/server\.env/);
  },
);
