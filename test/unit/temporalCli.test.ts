// Unit: the order in which the `temporal` CLI binary is looked for.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cacheRoot, cachedCliDir, resolveTemporalCli, TemporalCliNotFoundError } from '../../src/temporal/service/cli';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-cli-test-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function fakeExecutable(dir: string, name = 'temporal'): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, '#!/bin/sh\necho fake\n', { mode: 0o755 });
  return file;
}

// No real PATH, HOME or cache: nothing on this machine can leak into the result.
const emptyEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  PATH: path.join(tmp, 'empty-path'),
  HOME: path.join(tmp, 'home'),
  DURABLE_AGENT_CACHE_DIR: path.join(tmp, 'no-cache'),
  ...extra,
});
const quiet = { log: () => undefined };

test('unit: TEMPORAL_CLI_PATH pointing at a missing file is a clear error', async () => {
  const missing = path.join(tmp, 'nope', 'temporal');
  await assert.rejects(
    resolveTemporalCli({ ...quiet, env: emptyEnv({ TEMPORAL_CLI_PATH: missing }) }),
    (err: Error) => {
      assert.match(err.message, /TEMPORAL_CLI_PATH=.*nope\/temporal does not exist/);
      return true;
    },
  );
});

test('unit: TEMPORAL_CLI_PATH pointing at a non-executable file is a clear error', async () => {
  const file = path.join(tmp, 'not-exec');
  fs.writeFileSync(file, 'x', { mode: 0o644 });
  await assert.rejects(resolveTemporalCli({ ...quiet, env: emptyEnv({ TEMPORAL_CLI_PATH: file }) }), /not executable/);
});

test('unit: TEMPORAL_CLI_PATH wins over PATH and the cache', async () => {
  const fromEnv = fakeExecutable(path.join(tmp, 'env-bin'));
  const onPath = path.dirname(fakeExecutable(path.join(tmp, 'path-bin')));
  const r = await resolveTemporalCli({ ...quiet, env: emptyEnv({ TEMPORAL_CLI_PATH: fromEnv, PATH: onPath }) });
  assert.deepEqual(r, { kind: 'path', path: fromEnv, source: 'env' });
});

test('unit: `temporal` on PATH wins over the cache', async () => {
  const cache = path.join(tmp, 'cache-1');
  fakeExecutable(cachedCliDir({ DURABLE_AGENT_CACHE_DIR: cache }));
  const dir = path.dirname(fakeExecutable(path.join(tmp, 'path-bin-2')));
  const r = await resolveTemporalCli({
    ...quiet,
    env: emptyEnv({ PATH: `${path.join(tmp, 'empty')}${path.delimiter}${dir}`, DURABLE_AGENT_CACHE_DIR: cache }),
  });
  assert.deepEqual(r, { kind: 'path', path: path.join(dir, 'temporal'), source: 'path' });
});

test('unit: the cached build is used when nothing else is set', async () => {
  const cache = path.join(tmp, 'cache-2');
  const bin = fakeExecutable(cachedCliDir({ DURABLE_AGENT_CACHE_DIR: cache }));
  const r = await resolveTemporalCli({ ...quiet, env: emptyEnv({ DURABLE_AGENT_CACHE_DIR: cache }) });
  assert.deepEqual(r, { kind: 'path', path: bin, source: 'cache' });
});

test('unit: cache folder honours DURABLE_AGENT_CACHE_DIR, then XDG_CACHE_HOME, then ~/.cache', () => {
  assert.equal(cacheRoot({ DURABLE_AGENT_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x', HOME: '/h' }), '/c');
  assert.equal(cacheRoot({ XDG_CACHE_HOME: '/x', HOME: '/h' }), '/x/durable-agent');
  assert.equal(cacheRoot({ HOME: '/h' }), '/h/.cache/durable-agent');
  assert.equal(cachedCliDir({ HOME: '/h' }), '/h/.cache/durable-agent/temporal-v1.5.1');
});

test('unit: with no binary and no Go, the SDK download is the last resort', async () => {
  const r = await resolveTemporalCli({ ...quiet, env: emptyEnv() });
  assert.equal(r.kind, 'sdk-download');
});

test('unit: with nothing allowed, one error lists what was tried and how to fix it', async () => {
  await assert.rejects(resolveTemporalCli({ ...quiet, env: emptyEnv(), allowSdkDownload: false }), (err: unknown) => {
    assert.ok(err instanceof TemporalCliNotFoundError);
    for (const part of [
      'TEMPORAL_CLI_PATH',
      'on PATH',
      'cached build',
      '`go` not on PATH',
      'install Go',
      'put `temporal` on PATH',
    ]) {
      assert.ok(err.message.includes(part), `message lacks "${part}":\n${err.message}`);
    }
    return true;
  });
});

test('unit: a failing Go build is reported and falls through', async () => {
  // A fake `go` that fails like a broken toolchain would.
  const goDir = path.join(tmp, 'fake-go');
  fs.mkdirSync(goDir, { recursive: true });
  fs.writeFileSync(path.join(goDir, 'go'), '#!/bin/sh\necho "go: module lookup disabled" >&2\nexit 1\n', {
    mode: 0o755,
  });
  const lines: string[] = [];
  await assert.rejects(
    resolveTemporalCli({ log: (l) => lines.push(l), env: emptyEnv({ PATH: goDir }), allowSdkDownload: false }),
    /go install github\.com\/temporalio\/cli\/cmd\/temporal@v1\.5\.1 with .*exited with 1: go: module lookup disabled/,
  );
  assert.ok(
    lines.some((l) => l.includes('building')),
    'no progress printed',
  );
});

test('unit: a Go build that succeeds lands in the cache and is then found there', async () => {
  // A fake `go` that "installs" a script into $GOBIN, checking the arguments it was given.
  const goDir = path.join(tmp, 'fake-go-ok');
  fs.mkdirSync(goDir, { recursive: true });
  fs.writeFileSync(
    path.join(goDir, 'go'),
    '#!/bin/sh\n[ "$1 $2" = "install github.com/temporalio/cli/cmd/temporal@v1.5.1" ] || exit 2\nprintf "#!/bin/sh\\necho built\\n" > "$GOBIN/temporal" && /bin/chmod +x "$GOBIN/temporal"\n',
    { mode: 0o755 },
  );
  const cache = path.join(tmp, 'cache-3');
  const env = emptyEnv({ PATH: goDir, DURABLE_AGENT_CACHE_DIR: cache });
  const first = await resolveTemporalCli({ ...quiet, env });
  assert.deepEqual(first, { kind: 'path', path: path.join(cachedCliDir(env), 'temporal'), source: 'go-build' });
  const second = await resolveTemporalCli({ ...quiet, env });
  assert.equal(second.kind === 'path' && second.source, 'cache');
  assert.deepEqual(fs.readdirSync(cachedCliDir(env)), ['temporal'], 'temporary build folder left behind');
});
