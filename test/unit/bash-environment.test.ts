// unit: the pure parts of Bash's containment: the environment allowlist and `sandbox.passEnv`
// (values and their validation, errors naming file and key), the credential files the worker's
// environment points at, the worker's private paths in the per-call sandbox plan.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bashEnvironment } from '../../src/hostProcess/environment';
import { credentialPathsFromEnv, DEFAULT_CREDENTIAL_PATHS, runtimePlan } from '../../src/sandbox/policy';
import { validateSandboxSettings } from '../../src/sandbox/settings';
import { loadSettings, SettingsError } from '../../src/cli/settings';

test('unit: bashEnvironment keeps the allowlist and passEnv, drops everything else', () => {
  const worker = {
    PATH: '/bin',
    HOME: '/h',
    LANG: 'C.UTF-8',
    LC_ALL: 'C',
    FOO_TOKEN: 'x',
    DATABASE_URL: 'postgres://…',
    AWS_SECRET_ACCESS_KEY: 's',
    ANTHROPIC_API_KEY: 'k',
    GOPATH: '/go',
    UNSET: undefined,
  };
  assert.deepEqual(bashEnvironment(worker), { PATH: '/bin', HOME: '/h', LANG: 'C.UTF-8', LC_ALL: 'C', GOPATH: '/go' });
  assert.deepEqual(Object.keys(bashEnvironment(worker, ['FOO_TOKEN', 'AWS_*'])).sort(), [
    'AWS_SECRET_ACCESS_KEY',
    'FOO_TOKEN',
    'GOPATH',
    'HOME',
    'LANG',
    'LC_ALL',
    'PATH',
  ]);
  assert.equal(
    bashEnvironment(worker, ['*']).ANTHROPIC_API_KEY,
    undefined,
    'a pattern never passes the worker credentials',
  );
  assert.equal(bashEnvironment(worker, ['*']).DATABASE_URL, 'postgres://…', '* passes the rest');
  assert.equal(bashEnvironment(worker, ['ANTHROPIC_API_KEY']).ANTHROPIC_API_KEY, 'k', 'an exact name does');
});

test('unit: sandbox.passEnv is validated; a bad entry is an error naming the file and the key', () => {
  assert.deepEqual(validateSandboxSettings({ passEnv: ['FOO', 'NODE_*', '*'] }), []);
  for (const bad of ['FOO', ['FOO BAR'], ['$FOO'], [''], [3], ['A*B']]) {
    const p = validateSandboxSettings({ passEnv: bad });
    assert.equal(p.length, 1, JSON.stringify(bad));
    assert.equal(p[0]?.level, 'error');
    assert.match(p[0]?.message ?? '', /^sandbox\.passEnv(\[\d\])? must be/);
  }
  const dir = mkdtempSync(join(tmpdir(), 'da-passenv-'));
  const cwd = join(dir, 'repo');
  mkdirSync(join(cwd, '.durable-agent'), { recursive: true });
  const file = join(cwd, '.durable-agent', 'settings.json');
  writeFileSync(file, JSON.stringify({ sandbox: { passEnv: ['GOOD', 'not-a-name'] } }));
  assert.throws(
    () => loadSettings(cwd, [file]),
    (err: Error) =>
      err instanceof SettingsError &&
      err.message.includes(file) &&
      /sandbox\.passEnv\[1\] must be an environment variable name/.test(err.message),
  );
  // Lists from several files are concatenated.
  const user = join(dir, 'user.json');
  writeFileSync(user, JSON.stringify({ sandbox: { passEnv: ['A'] } }));
  writeFileSync(file, JSON.stringify({ sandbox: { passEnv: ['B_*'] } }));
  assert.deepEqual(loadSettings(cwd, [user, file]).sandbox?.passEnv, ['A', 'B_*']);
});

test('unit: credential files named by the environment: XDG and CLAUDE_CONFIG_DIR forms, TEMPORAL_TLS_*, GOOGLE_APPLICATION_CREDENTIALS, KUBECONFIG', () => {
  const got = credentialPathsFromEnv(
    {
      XDG_CONFIG_HOME: '/x/cfg',
      XDG_DATA_HOME: '/x/data',
      CLAUDE_CONFIG_DIR: '/x/claude',
      TEMPORAL_TLS_CLIENT_KEY_PATH: 'keys/client.key',
      TEMPORAL_TLS_CLIENT_CERT_PATH: '/k/client.pem',
      TEMPORAL_CONFIG_FILE: '~/t/temporal.toml',
      TEMPORAL_API_KEY: 'not-a-path-secret',
      TEMPORAL_TLS_CLIENT_KEY_DATA: '-----BEGIN PRIVATE KEY-----/x',
      TEMPORAL_ADDRESS: 'host:7233',
      GOOGLE_APPLICATION_CREDENTIALS: '/k/gcp.json',
      KUBECONFIG: '/k/a:/k/b',
      DOCKER_CONFIG: '/k/docker',
    },
    '/home/u',
    '/srv/worker',
  );
  for (const p of [
    '/x/cfg/git/credentials',
    '/x/cfg/temporalio',
    '/x/cfg/gh',
    '/x/data/keyrings',
    '/x/claude/.claude.json',
    '/x/claude/.claude.json.backup*',
    '/x/claude/.credentials.json',
    '/x/claude/backups',
    '/srv/worker/keys/client.key',
    '/k/client.pem',
    '/home/u/t/temporal.toml',
    '/k/gcp.json',
    '/k/a',
    '/k/b',
    '/k/docker/config.json',
  ])
    assert.ok(got.includes(p), `${p} in ${JSON.stringify(got)}`);
  assert.ok(
    !got.some((p) => p.includes('not-a-path') || p.includes('BEGIN') || p.includes('7233')),
    JSON.stringify(got),
  );
  // With no variable set: only the user's own Kerberos caches (MIT's default, /tmp/krb5cc_<uid>: M12) and
  // their runtime directory (/run/user/<uid> on Linux: O7).
  const uid = process.getuid?.();
  assert.deepEqual(
    credentialPathsFromEnv({}, '/home/u', '/').filter((p) => !p.startsWith('/tmp/krb5cc_')),
    process.platform === 'linux' && uid !== undefined ? [`/run/user/${uid}`] : [],
  );
});

test("unit: the runtime directory is denied whole (O7), but its known stores only when the worker's temp directory, HOME or cwd lies inside it; /run/secrets and /var/run/secrets are listed", () => {
  assert.ok(
    credentialPathsFromEnv({ XDG_RUNTIME_DIR: '/run/user/1000' }, '/home/u', '/srv').includes('/run/user/1000'),
  );
  const inside = credentialPathsFromEnv({ XDG_RUNTIME_DIR: '/run/user/1000' }, '/run/user/1000/home', '/srv');
  assert.ok(!inside.includes('/run/user/1000'), inside.join(', '));
  for (const n of ['gvfs', 'doc', 'keybase', 'containers']) assert.ok(inside.includes(`/run/user/1000/${n}`), n);
  for (const p of ['/run/secrets', '/var/run/secrets']) assert.ok(DEFAULT_CREDENTIAL_PATHS.includes(p), p);
});

test("unit: the sandbox plan denies the worker's private paths to reads and writes, re-opens this session's results for reading only", () => {
  const plan = runtimePlan({}, ['/w', '/store/results/s1'], {
    home: '/home/u',
    sessionTmpDir: '/tmp/durable-agent-sandbox/abc',
    platform: 'linux',
    env: { XDG_CONFIG_HOME: '/x/cfg' },
    cwd: '/srv',
    privatePaths: ['/store', '/home/u/.durable-agent'],
    ownResults: ['/store/results/s1'],
  }).call.filesystem;
  // HOME is closed (issue 30, round o): what lies in it is denied with it, and nothing there is allowed back.
  assert.ok(plan.denyRead.includes('/store') && plan.denyRead.includes('/home/u'));
  assert.ok(plan.denyWrite.includes('/store') && plan.denyWrite.includes('/home/u/.durable-agent'));
  assert.ok(plan.denyRead.includes('/x/cfg/git/credentials'));
  assert.deepEqual(plan.allowRead, ['/store/results/s1']);
  assert.deepEqual(plan.allowWrite, ['/w', '/tmp/durable-agent-sandbox/abc'], 'the results directory is not writable');
  // The credential paths and the person's programs cache (the Temporal CLI their `dev` runs: K8).
  const bare = runtimePlan({}, ['/w'], { home: '/h', sessionTmpDir: '/t', platform: 'linux' }).call.filesystem;
  // HOME, and outside it the container's and the pod's secrets (O7).
  assert.deepEqual(bare.denyRead, ['/h', '/run/secrets', '/var/run/secrets']);
  assert.ok(bare.denyWrite.includes('/h/.cache/durable-agent'));
  // Where HOME cannot be closed (`/`), the list and the programs cache are denied one by one.
  const open = runtimePlan({}, ['/w'], { home: '/', sessionTmpDir: '/t', platform: 'linux' }).call.filesystem;
  assert.equal(open.denyRead.length, DEFAULT_CREDENTIAL_PATHS.length + 1);
  assert.ok(open.denyRead.includes('/.cache/durable-agent'));
});

test('unit: the sandbox line of run/status/audit names the variables sandbox.passEnv adds', async () => {
  const { describeSandbox } = await import('../../src/sandbox/policy');
  assert.match(
    describeSandbox({ passEnv: ['GOFLAGS', 'NPM_CONFIG_*'] }, 'linux', ['/w']),
    /; environment: the allowlist plus GOFLAGS, NPM_CONFIG_\* \(sandbox\.passEnv\)$/,
  );
  assert.doesNotMatch(describeSandbox({}, 'linux', ['/w']), /environment/);
});

test("unit: the worker's private paths: its store, the default store, a file: store's directory, the data directory, the programs cache, what the embedder adds", async () => {
  const { workerPrivatePaths } = await import('../../src/temporal/worker');
  const { configuredBlobStore } = await import('../../src/stores/configured');
  const saved = {
    home: process.env.DURABLE_AGENT_HOME,
    dir: process.env.DURABLE_AGENT_STORE_DIR,
    cache: process.env.DURABLE_AGENT_CACHE_DIR,
  };
  process.env.DURABLE_AGENT_HOME = '/data/da';
  process.env.DURABLE_AGENT_STORE_DIR = '/data/default-store';
  process.env.DURABLE_AGENT_CACHE_DIR = '/data/cache';
  try {
    const blobs = configuredBlobStore({ storeDir: '/w/store', store: 'file:///blobs/here' });
    const { localStoresRoot } = await import('../../src/stores/dataHome');
    assert.deepEqual(
      workerPrivatePaths('/w/store', blobs, ['/srv/dev.db']).sort(),
      [
        '/blobs/here',
        '/data/cache',
        '/data/da',
        '/data/default-store',
        '/srv/dev.db',
        '/w/store',
        localStoresRoot(), // every in-process session's temporary store (K7)
      ].sort(),
    );
  } finally {
    for (const [k, v] of [
      ['DURABLE_AGENT_HOME', saved.home],
      ['DURABLE_AGENT_STORE_DIR', saved.dir],
      ['DURABLE_AGENT_CACHE_DIR', saved.cache],
    ] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
});

test('unit: the files the global git config includes are credentials, under any condition, followed as git does (issue 30, K2)', () => {
  const home = mkdtempSync(join(tmpdir(), 'da-gitinc-'));
  try {
    mkdirSync(join(home, '.config', 'git'), { recursive: true });
    mkdirSync(join(home, 'cfg'), { recursive: true });
    writeFileSync(
      join(home, '.gitconfig'),
      '[user]\n\tname = Pat\n[include]\n\tpath = ~/.gitconfig.local\n[includeIf "gitdir:~/work/"]\n\tpath = cfg/work.inc\n',
    );
    // An included file includes another (relative to itself); a cycle back ends.
    writeFileSync(join(home, 'cfg', 'work.inc'), '[include]\n\tpath = deeper.inc\n\tpath = ../.gitconfig\n');
    writeFileSync(join(home, '.config', 'git', 'config'), '[include]\n\tpath = /abs/xdg.inc\n');
    const got = credentialPathsFromEnv({}, home, '/srv/worker');
    for (const want of [
      join(home, '.gitconfig.local'),
      join(home, 'cfg', 'work.inc'),
      join(home, 'cfg', 'deeper.inc'),
      '/abs/xdg.inc',
    ])
      assert.ok(got.includes(want), `${want} in ${got.join(', ')}`);
    // Every tool-token file round k found readable is in the default list.
    for (const p of ['~/.yarnrc.yml', '~/.codex', '~/.gemini', '~/.config/github-copilot', '~/.claude/projects'])
      assert.ok(DEFAULT_CREDENTIAL_PATHS.includes(p), p);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
