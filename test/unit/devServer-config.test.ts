// unit: the dynamic config the dev server (durable-agent dev, the test server, the bench) starts
// with, and the production server's dynamic config keeping the same latency settings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEV_SERVER_DYNAMIC_CONFIG, dynamicConfigArgs } from '../../src/temporal/service/devServer';

function pairs(args: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 2) {
    assert.equal(args[i], '--dynamic-config-value');
    const [k, ...v] = args[i + 1]!.split('=');
    out[k!] = v.join('=');
  }
  return out;
}

test('unit: the dev server gets the transfer-queue poll rate and eager activities by default', () => {
  const got = pairs(dynamicConfigArgs());
  assert.equal(got['history.transferProcessorMaxPollRPS'], '1000');
  assert.equal(got['system.enableActivityEagerExecution'], 'true');
  assert.equal(Object.keys(got).length, Object.keys(DEV_SERVER_DYNAMIC_CONFIG).length);
});

test('unit: a caller overrides a default, drops one with null, and adds keys (values as JSON)', () => {
  const got = pairs(
    dynamicConfigArgs({
      'history.transferProcessorMaxPollRPS': 20,
      'system.enableActivityEagerExecution': null,
      'frontend.namespaceCount': 'x',
    }),
  );
  assert.deepEqual(got, { 'history.transferProcessorMaxPollRPS': '20', 'frontend.namespaceCount': '"x"' });
});

test('unit: the production dynamic config raises the transfer-queue poll rate and enables eager activities', () => {
  let dir = __dirname;
  while (!existsSync(join(dir, 'deploy', 'temporal', 'dynamicconfig.yaml'))) {
    const up = dirname(dir);
    assert.notEqual(up, dir, 'deploy/temporal/dynamicconfig.yaml not found');
    dir = up;
  }
  const yaml = readFileSync(join(dir, 'deploy', 'temporal', 'dynamicconfig.yaml'), 'utf8');
  const value = (key: string): string | undefined =>
    new RegExp(`^${key.replace(/\./g, '\\.')}:\\s*\\n\\s*-\\s*value:\\s*(\\S+)`, 'm').exec(yaml)?.[1];
  assert.ok(
    Number(value('history.transferProcessorMaxPollRPS')) >= 100,
    'transferProcessorMaxPollRPS raised from the default 20',
  );
  assert.equal(value('system.enableActivityEagerExecution'), 'true');
});
