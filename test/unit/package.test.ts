// unit: the package is usable right after `npm ci`: its `prepare` script builds (so the README's
// `npx durable-agent …` commands work without a separate build), and it is a no-op where there is
// nothing to build yet (the Dockerfile runs `npm ci` before copying tsconfig.json and src/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const root = (() => {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'tsconfig.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`package root not found above ${__dirname}`);
  }
})();
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  bin: Record<string, string>;
  version: string;
};

test('unit: `prepare` builds with tsc, and does nothing (exit 0) where tsconfig.json is absent', async () => {
  const prepare = pkg.scripts.prepare ?? '';
  assert.match(prepare, /npm run build/);
  assert.match(pkg.scripts.build ?? '', /tsc -p tsconfig\.json/);
  const empty = await mkdtemp(join(tmpdir(), 'da-prepare-'));
  const r = spawnSync('sh', ['-c', prepare], { cwd: empty, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

test('unit: the `durable-agent` bin is what the build emits, and `npx durable-agent` runs it', () => {
  const bin = pkg.bin['durable-agent'];
  assert.ok(bin);
  assert.equal(readFileSync(join(root, bin), 'utf8').split('\n')[0], '#!/usr/bin/env node');
  // npm links bins before `prepare` builds: the build itself must make the bin executable.
  assert.equal(statSync(join(root, bin)).mode & 0o111, 0o111, `${bin} is not executable`);
  const r = spawnSync('npx', ['--no-install', 'durable-agent', '--version'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), pkg.version);
});
