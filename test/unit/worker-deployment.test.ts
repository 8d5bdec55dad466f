// unit: Worker Deployment Versioning is off unless asked for (docs/deployment.md "Upgrading with
// deployment versions"): the worker's deployment from the option or both env vars, never one alone;
// the Worker.create options it makes; the turn workflow PINNED and the session AUTO_UPGRADE; the
// CLI refuses --deployment-name without --build-id and --make-current without both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { deploymentWorkerOptions, workerDeployment } from '../../src/temporal/worker';
import * as plain from '../../src/temporal/workflows';

function withEnv(vars: Record<string, string | undefined>, f: () => void): void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const set = (v: Record<string, string | undefined>) => {
    for (const [k, x] of Object.entries(v))
      if (x === undefined) delete process.env[k];
      else process.env[k] = x;
  };
  set(vars);
  try {
    f();
  } finally {
    set(saved);
  }
}

test('unit: a worker is unversioned unless a deployment is given (option, or both env vars)', () => {
  withEnv({ DURABLE_AGENT_DEPLOYMENT_NAME: undefined, DURABLE_AGENT_BUILD_ID: undefined }, () => {
    assert.equal(workerDeployment(), undefined);
    assert.deepEqual(deploymentWorkerOptions(undefined), {});
    assert.deepEqual(workerDeployment({ deploymentName: 'd', buildId: 'b' }), { deploymentName: 'd', buildId: 'b' });
  });
  withEnv({ DURABLE_AGENT_DEPLOYMENT_NAME: 'durable-agent', DURABLE_AGENT_BUILD_ID: 'v0.2.0' }, () => {
    const d = workerDeployment();
    assert.deepEqual(d, { deploymentName: 'durable-agent', buildId: 'v0.2.0' });
    assert.deepEqual(deploymentWorkerOptions(d), {
      workerDeploymentOptions: {
        useWorkerVersioning: true,
        version: { deploymentName: 'durable-agent', buildId: 'v0.2.0' },
        defaultVersioningBehavior: 'AUTO_UPGRADE',
      },
    });
  });
  withEnv({ DURABLE_AGENT_DEPLOYMENT_NAME: 'durable-agent', DURABLE_AGENT_BUILD_ID: undefined }, () => {
    assert.throws(() => workerDeployment(), /needs both DURABLE_AGENT_DEPLOYMENT_NAME and DURABLE_AGENT_BUILD_ID/);
  });
});

test('unit: the versioned entry makes turns PINNED and sessions AUTO_UPGRADE; the plain entry names no behaviour', async () => {
  const options = (fn: unknown) =>
    (fn as { workflowDefinitionOptions?: { versioningBehavior?: string } }).workflowDefinitionOptions;
  // Before the versioned entry is loaded (it sets the options on the same functions in this process;
  // in a worker each bundle has its own).
  assert.equal(options(plain.turnWorkflow), undefined);
  assert.equal(options(plain.sessionWorkflow), undefined);
  const versioned = await import('../../src/temporal/workflows/versioned');
  assert.equal(options(versioned.turnWorkflow)?.versioningBehavior, 'PINNED');
  assert.equal(options(versioned.sessionWorkflow)?.versioningBehavior, 'AUTO_UPGRADE');
});

test('unit: durable-agent worker refuses half a deployment', () => {
  const main = join(__dirname, '../../src/cli/main.js');
  for (const args of [['--deployment-name', 'd'], ['--build-id', 'b'], ['--make-current']]) {
    const r = spawnSync(process.execPath, [main, 'worker', '--demo-model', ...args], {
      encoding: 'utf8',
      env: { ...process.env, DURABLE_AGENT_DEPLOYMENT_NAME: '', DURABLE_AGENT_BUILD_ID: '' },
      timeout: 30_000,
    });
    assert.notEqual(r.status, 0, args.join(' '));
    assert.match(r.stderr, /--deployment-name and --build-id go together|--make-current needs/, args.join(' '));
  }
});
