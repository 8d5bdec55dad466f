// unit: sandbox settings validation and the derivation of one Bash call's sandbox configuration
// (pure: no sandbox runs here; test/unit/sandbox-bash and test/integration/sandbox run real ones).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  mergeSandboxSettings,
  resolveSandboxPaths,
  resolveSettingsPath,
  validateSandboxSettings,
} from '../../src/sandbox/settings';
import {
  DEFAULT_CREDENTIAL_PATHS,
  describeSandbox,
  excludedBy,
  planCall,
  runtimePlan,
  sandboxPathsFromRules,
  simpleCommands,
} from '../../src/sandbox/policy';
import { sessionInputProblems } from '../../src/sessionInput';
import { BypassDisabledError, sessionInput } from '../../src/temporal/client';

test('unit: every documented sandbox key validates; wrong types, unknown and unsupported keys are errors naming the key', () => {
  const full = {
    enabled: true,
    failIfUnavailable: true,
    autoAllowBashIfSandboxed: false,
    excludedCommands: ['docker', 'npm run test:*'],
    allowUnsandboxedCommands: false,
    enabledPlatforms: ['linux', 'macos'],
    ignoreViolations: { '*': ['/usr/bin'] },
    enableWeakerNestedSandbox: false,
    enableWeakerNetworkIsolation: false,
    allowNestedUserNamespaces: false,
    allowAppleEvents: false,
    bwrapPath: '/usr/bin/bwrap',
    socatPath: '/usr/bin/socat',
    ripgrep: { command: 'rg', args: ['--hidden'] },
    network: {
      allowedDomains: ['github.com', '*.npmjs.org'],
      deniedDomains: ['evil.example'],
      allowUnixSockets: ['/var/run/docker.sock'],
      allowAllUnixSockets: false,
      allowLocalBinding: true,
      allowMachLookup: ['com.apple.x'],
      httpProxyPort: 8080,
      socksProxyPort: 1080,
      strictAllowlist: true,
    },
    filesystem: {
      allowWrite: ['/tmp/build'],
      denyWrite: ['.env'],
      denyRead: ['~/.kube'],
      allowRead: ['.'],
      disabled: false,
    },
  };
  assert.deepEqual(validateSandboxSettings(full), []);
  const bad = (value: unknown) => validateSandboxSettings(value).map((p) => `${p.level} ${p.key}: ${p.message}`);
  assert.match(bad({ enabled: 'yes' })[0] as string, /^error sandbox\.enabled: .*true or false/);
  assert.match(
    bad({ network: { allowedDomains: 'github.com' } })[0] as string,
    /^error sandbox\.network\.allowedDomains: .*list/,
  );
  assert.match(
    bad({ network: { httpProxyPort: 70000 } })[0] as string,
    /sandbox\.network\.httpProxyPort must be a TCP port/,
  );
  assert.match(
    bad({ filesystem: { denyReed: ['x'] } })[0] as string,
    /^error sandbox\.filesystem\.denyReed: .*not a sandbox setting durable-agent knows/,
  );
  assert.match(bad({ autoAllow: true })[0] as string, /^error sandbox\.autoAllow:/);
  assert.match(bad({ credentials: { files: [] } })[0] as string, /^error sandbox\.credentials: .*not supported/);
  assert.match(
    bad({ network: { allowManagedDomainsOnly: true } })[0] as string,
    /allowManagedDomainsOnly is not supported: .*managed settings/,
  );
  assert.match(
    bad({ enabledPlatforms: ['beos'] })[0] as string,
    /enabledPlatforms must be a list of macos, linux, windows, wsl/,
  );
  assert.match(bad([])[0] as string, /sandbox must be an object/);
});

test('unit: settings paths are resolved like the reference: // and / absolute, ~ kept for the worker, the rest relative to the base', () => {
  assert.equal(resolveSettingsPath('//etc/x', '/repo'), '/etc/x');
  assert.equal(resolveSettingsPath('/etc/x', '/repo'), '/etc/x');
  assert.equal(resolveSettingsPath('~/.kube', '/repo'), '~/.kube');
  assert.equal(resolveSettingsPath('./out', '/repo'), '/repo/out');
  assert.equal(resolveSettingsPath('build/tmp', '/repo'), '/repo/build/tmp');
  const r = resolveSandboxPaths(
    { filesystem: { allowWrite: ['out'], denyRead: ['secrets'] }, network: { allowUnixSockets: ['run/x.sock'] } },
    '/repo',
  );
  assert.deepEqual(r.filesystem, { allowWrite: ['/repo/out'], denyRead: ['/repo/secrets'] });
  assert.deepEqual(r.network?.allowUnixSockets, ['/repo/run/x.sock']);
});

test('unit: user and project sandbox settings merge: lists concatenate, scalars of the later file win', () => {
  const m = mergeSandboxSettings(
    {
      enabled: true,
      excludedCommands: ['docker'],
      network: { allowedDomains: ['a.com'], allowLocalBinding: false },
      filesystem: { denyRead: ['/u'] },
    },
    {
      autoAllowBashIfSandboxed: false,
      excludedCommands: ['kubectl'],
      network: { allowedDomains: ['b.com'], allowLocalBinding: true },
    },
  );
  assert.deepEqual(m, {
    enabled: true,
    autoAllowBashIfSandboxed: false,
    excludedCommands: ['docker', 'kubectl'],
    network: { allowedDomains: ['a.com', 'b.com'], allowLocalBinding: true },
    filesystem: { denyRead: ['/u'] },
  });
});

test('unit: which calls run sandboxed: default on; enabled false, platforms, excludedCommands and dangerouslyDisableSandbox', () => {
  assert.deepEqual(planCall({}, 'linux', 'npm test'), { sandboxed: true, reason: 'sandboxed', escapes: false });
  const off = planCall({ enabled: false }, 'linux', 'npm test');
  assert.equal(off.sandboxed, false);
  assert.equal(off.escapes, false, 'an opted-out session does not "escape": it has no sandbox');
  assert.match(off.reason, /sandbox\.enabled: false or --no-sandbox/);
  assert.equal(planCall({ enabledPlatforms: ['macos'] }, 'linux', 'ls').sandboxed, false);
  assert.equal(planCall({ enabledPlatforms: ['linux'] }, 'linux', 'ls').sandboxed, true);
  const ex = planCall({ excludedCommands: ['docker'] }, 'linux', 'cd app && docker build .');
  assert.deepEqual([ex.sandboxed, ex.escapes], [false, true]);
  assert.match(ex.reason, /"docker" is in sandbox\.excludedCommands/);
  assert.equal(
    planCall({ excludedCommands: ['docker'] }, 'linux', 'dockerd-helper').sandboxed,
    true,
    'a prefix of a word is not the command',
  );
  assert.equal(
    planCall({ excludedCommands: ['docker'] }, 'linux', 'echo "a; docker"').sandboxed,
    true,
    'quoted separators do not split',
  );
  const dd = planCall({}, 'linux', 'ls', true);
  assert.deepEqual([dd.sandboxed, dd.escapes], [false, true]);
  assert.equal(
    planCall({ allowUnsandboxedCommands: false }, 'linux', 'ls', true).sandboxed,
    true,
    'the request is ignored when unsandboxed commands are not allowed',
  );
  assert.deepEqual(simpleCommands('a && b || c; d | e & f\ng'), ['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  assert.equal(excludedBy('FOO=1 npm run test --watch', ['npm run test:*']), 'npm run test:*');
  assert.equal(excludedBy('git push origin main', ['git push *']), 'git push *');
  assert.equal(excludedBy('git pull', ['git push *']), undefined);
  assert.equal(
    excludedBy('npm run test:unit', ['npm run test:*']),
    undefined,
    'the legacy :* is a word-boundary prefix',
  );
});

test('unit: the runtime plan: writes in the working dirs and the session temp dir, credentials unreadable, network empty unless allowed', () => {
  const host = { home: '/home/u', sessionTmpDir: '/tmp/da-s1', platform: 'linux' };
  const p = runtimePlan({}, ['/repo', '/shared'], host);
  assert.deepEqual(p.call.filesystem.allowWrite, ['/repo', '/shared', '/tmp/da-s1']);
  // HOME is closed (issue 30, round o): the credential files in it and the person's programs cache
  // (issue 30, K8) need no mount of their own; none is allowed back.
  // Outside HOME: the container's and the pod's secrets (red team o, O7).
  assert.deepEqual(p.call.filesystem.denyRead, ['/home/u', '/run/secrets', '/var/run/secrets']);
  for (const cred of [
    '/home/u/.ssh',
    '/home/u/.aws',
    '/home/u/.gnupg',
    '/home/u/.config/gcloud',
    '/home/u/.durable-agent/settings.json',
    '/home/u/.cache/durable-agent',
  ]) {
    assert.ok(!p.call.filesystem.allowRead.some((a) => cred === a || cred.startsWith(`${a}/`)), cred);
  }
  // Open HOME (a session whose working directory is an ancestor of nothing there, HOME unusable): the list.
  const open = runtimePlan({}, ['/repo'], { ...host, home: '/' }).call.filesystem;
  assert.equal(open.denyRead.length, DEFAULT_CREDENTIAL_PATHS.length + 1);
  assert.deepEqual(p.allowedDomains, []);
  assert.deepEqual(
    p.global.network,
    { allowedDomains: [], deniedDomains: [] },
    'the worker-wide list stays empty: allowlists are per command',
  );
  const q = runtimePlan(
    {
      network: {
        allowedDomains: ['github.com'],
        deniedDomains: ['x.github.com'],
        allowLocalBinding: true,
        allowUnixSockets: ['~/agent.sock'],
      },
      filesystem: {
        allowWrite: ['~/.cache/tool'],
        denyWrite: ['/repo/.env'],
        denyRead: ['/repo/secrets'],
        allowRead: ['~/.ssh/known_hosts'],
      },
      enableWeakerNestedSandbox: true,
      allowNestedUserNamespaces: true,
    },
    ['/repo'],
    host,
  );
  assert.deepEqual(q.allowedDomains, ['github.com']);
  assert.deepEqual(q.global.network.deniedDomains, ['x.github.com']);
  // Keys only the macOS sandbox reads stay out of the worker-wide part on Linux (no runtime of their own).
  assert.equal(q.global.network.allowLocalBinding, undefined);
  assert.equal(q.global.network.allowUnixSockets, undefined);
  assert.equal(q.global.enableWeakerNestedSandbox, true);
  const mac = runtimePlan(
    { network: { allowLocalBinding: true, allowUnixSockets: ['~/agent.sock'] }, ignoreViolations: { '*': ['x'] } },
    ['/repo'],
    { ...host, platform: 'macos' },
  );
  assert.equal(mac.global.network.allowLocalBinding, true);
  assert.deepEqual(mac.global.network.allowUnixSockets, ['/home/u/agent.sock']);
  // ignoreViolations is applied per call by the host, never worker-wide.
  assert.deepEqual(mac.ignoreViolations, { '*': ['x'] });
  assert.equal('ignoreViolations' in mac.global, false);
  assert.equal(q.call.allowNestedUserNamespaces, true);
  assert.ok(q.call.filesystem.allowWrite.includes('/home/u/.cache/tool'));
  // The settings' own denyWrite, after the person's programs cache (issue 30, K8).
  assert.deepEqual(q.call.filesystem.denyWrite, ['/home/u/.cache/durable-agent', '/repo/.env']);
  assert.ok(q.call.filesystem.denyRead.includes('/repo/secrets'));
  assert.deepEqual(q.call.filesystem.allowRead, ['/home/u/.ssh/known_hosts']);
  // Two sessions that differ only in paths and allowlists share the worker-wide part (they run side by side).
  assert.deepEqual(
    runtimePlan({ network: { allowedDomains: ['a.com'] } }, ['/a'], host).global,
    runtimePlan({ filesystem: { denyRead: ['/b'] } }, ['/b'], host).global,
  );
});

test('unit: Read/Edit rules become sandbox paths, anchored at the project root', () => {
  const r = sandboxPathsFromRules(
    {
      allow: ['Edit(./build/**)', 'Bash(npm test)'],
      ask: [],
      deny: ['Read(./.env)', 'Read(.npmrc)', 'Edit(//etc/hosts)', 'Read(~/notes)', 'Read', 'Bash(curl:*)'],
    },
    '/repo',
  );
  assert.deepEqual(r, {
    denyRead: ['/repo/.env', '/repo/**/.npmrc', '~/notes'],
    denyWrite: ['/etc/hosts'],
    allowWrite: ['/repo/build/**'],
  });
});

test('unit: the one-line description says on/off/unavailable and what is contained', () => {
  assert.match(
    describeSandbox({}, 'linux', ['/repo']),
    /^on — Bash writes only in \/repo, the session temp dir; network: none; credentials .*unreadable/,
  );
  assert.match(
    describeSandbox({ network: { allowedDomains: ['github.com'] } }, 'linux', ['/repo']),
    /network: github\.com/,
  );
  assert.match(describeSandbox({ enabled: false }, 'linux', ['/repo']), /^off — /);
  assert.match(
    describeSandbox({}, 'linux', ['/repo'], 'bwrap not found'),
    /^unavailable — bwrap not found; Bash runs unsandboxed/,
  );
  assert.match(describeSandbox({ failIfUnavailable: true }, 'linux', ['/repo'], 'bwrap not found'), /refused/);
});

test('unit: disableBypassPermissionsMode refuses a bypassPermissions session at start and in the workflow input check', () => {
  assert.throws(
    () =>
      sessionInput({
        prompt: 'x',
        cwd: '/tmp',
        permissionMode: 'bypassPermissions',
        disableBypassPermissionsMode: true,
      }),
    (err: Error) => err instanceof BypassDisabledError && /disableBypassPermissionsMode/.test(err.message),
  );
  const input = sessionInput({
    prompt: 'x',
    cwd: '/tmp',
    permissionMode: 'default',
    disableBypassPermissionsMode: true,
  });
  assert.deepEqual(sessionInputProblems(input), []);
  assert.deepEqual(sessionInputProblems({ ...input, permissionMode: 'bypassPermissions' }), [
    'bypassPermissions mode is disabled by permissions.disableBypassPermissionsMode ("disable")',
  ]);
  // The default sandbox (on); the session's repository is recorded at its start (none in /tmp).
  assert.deepEqual(input.sandbox, { repository: false }, 'a session that says nothing gets the default sandbox (on)');
  const withRules = sessionInput({
    prompt: 'x',
    cwd: '/repo',
    rules: { allow: [], ask: [], deny: ['Read(./.env)'] },
    sandbox: { filesystem: { denyRead: ['/x'] } },
  });
  assert.deepEqual(withRules.sandbox?.filesystem?.denyRead, ['/x', '/repo/.env']);
});
