"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: sandbox settings validation and the derivation of one Bash call's sandbox configuration
// (pure: no sandbox runs here; test/unit/sandbox-bash and test/integration/sandbox run real ones).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const settings_1 = require("../../src/sandbox/settings");
const policy_1 = require("../../src/sandbox/policy");
const sessionInput_1 = require("../../src/sessionInput");
const client_1 = require("../../src/client");
(0, node_test_1.test)('unit: every documented sandbox key validates; wrong types, unknown and unsupported keys are errors naming the key', () => {
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
    strict_1.default.deepEqual((0, settings_1.validateSandboxSettings)(full), []);
    const bad = (value) => (0, settings_1.validateSandboxSettings)(value).map((p) => `${p.level} ${p.key}: ${p.message}`);
    strict_1.default.match(bad({ enabled: 'yes' })[0], /^error sandbox\.enabled: .*true or false/);
    strict_1.default.match(bad({ network: { allowedDomains: 'github.com' } })[0], /^error sandbox\.network\.allowedDomains: .*list/);
    strict_1.default.match(bad({ network: { httpProxyPort: 70000 } })[0], /sandbox\.network\.httpProxyPort must be a TCP port/);
    strict_1.default.match(bad({ filesystem: { denyReed: ['x'] } })[0], /^error sandbox\.filesystem\.denyReed: .*not a sandbox setting durable-agent knows/);
    strict_1.default.match(bad({ autoAllow: true })[0], /^error sandbox\.autoAllow:/);
    strict_1.default.match(bad({ credentials: { files: [] } })[0], /^error sandbox\.credentials: .*not supported/);
    strict_1.default.match(bad({ network: { allowManagedDomainsOnly: true } })[0], /allowManagedDomainsOnly is not supported: .*managed settings/);
    strict_1.default.match(bad({ enabledPlatforms: ['beos'] })[0], /enabledPlatforms must be a list of macos, linux, windows, wsl/);
    strict_1.default.match(bad([])[0], /sandbox must be an object/);
});
(0, node_test_1.test)('unit: settings paths are resolved like the reference: // and / absolute, ~ kept for the worker, the rest relative to the base', () => {
    strict_1.default.equal((0, settings_1.resolveSettingsPath)('//etc/x', '/repo'), '/etc/x');
    strict_1.default.equal((0, settings_1.resolveSettingsPath)('/etc/x', '/repo'), '/etc/x');
    strict_1.default.equal((0, settings_1.resolveSettingsPath)('~/.kube', '/repo'), '~/.kube');
    strict_1.default.equal((0, settings_1.resolveSettingsPath)('./out', '/repo'), '/repo/out');
    strict_1.default.equal((0, settings_1.resolveSettingsPath)('build/tmp', '/repo'), '/repo/build/tmp');
    const r = (0, settings_1.resolveSandboxPaths)({ filesystem: { allowWrite: ['out'], denyRead: ['secrets'] }, network: { allowUnixSockets: ['run/x.sock'] } }, '/repo');
    strict_1.default.deepEqual(r.filesystem, { allowWrite: ['/repo/out'], denyRead: ['/repo/secrets'] });
    strict_1.default.deepEqual(r.network?.allowUnixSockets, ['/repo/run/x.sock']);
});
(0, node_test_1.test)('unit: user and project sandbox settings merge: lists concatenate, scalars of the later file win', () => {
    const m = (0, settings_1.mergeSandboxSettings)({
        enabled: true,
        excludedCommands: ['docker'],
        network: { allowedDomains: ['a.com'], allowLocalBinding: false },
        filesystem: { denyRead: ['/u'] },
    }, {
        autoAllowBashIfSandboxed: false,
        excludedCommands: ['kubectl'],
        network: { allowedDomains: ['b.com'], allowLocalBinding: true },
    });
    strict_1.default.deepEqual(m, {
        enabled: true,
        autoAllowBashIfSandboxed: false,
        excludedCommands: ['docker', 'kubectl'],
        network: { allowedDomains: ['a.com', 'b.com'], allowLocalBinding: true },
        filesystem: { denyRead: ['/u'] },
    });
});
(0, node_test_1.test)('unit: which calls run sandboxed: default on; enabled false, platforms, excludedCommands and dangerouslyDisableSandbox', () => {
    strict_1.default.deepEqual((0, policy_1.planCall)({}, 'linux', 'npm test'), { sandboxed: true, reason: 'sandboxed', escapes: false });
    const off = (0, policy_1.planCall)({ enabled: false }, 'linux', 'npm test');
    strict_1.default.equal(off.sandboxed, false);
    strict_1.default.equal(off.escapes, false, 'an opted-out session does not "escape": it has no sandbox');
    strict_1.default.match(off.reason, /sandbox\.enabled: false or --no-sandbox/);
    strict_1.default.equal((0, policy_1.planCall)({ enabledPlatforms: ['macos'] }, 'linux', 'ls').sandboxed, false);
    strict_1.default.equal((0, policy_1.planCall)({ enabledPlatforms: ['linux'] }, 'linux', 'ls').sandboxed, true);
    const ex = (0, policy_1.planCall)({ excludedCommands: ['docker'] }, 'linux', 'cd app && docker build .');
    strict_1.default.deepEqual([ex.sandboxed, ex.escapes], [false, true]);
    strict_1.default.match(ex.reason, /"docker" is in sandbox\.excludedCommands/);
    strict_1.default.equal((0, policy_1.planCall)({ excludedCommands: ['docker'] }, 'linux', 'dockerd-helper').sandboxed, true, 'a prefix of a word is not the command');
    strict_1.default.equal((0, policy_1.planCall)({ excludedCommands: ['docker'] }, 'linux', 'echo "a; docker"').sandboxed, true, 'quoted separators do not split');
    const dd = (0, policy_1.planCall)({}, 'linux', 'ls', true);
    strict_1.default.deepEqual([dd.sandboxed, dd.escapes], [false, true]);
    strict_1.default.equal((0, policy_1.planCall)({ allowUnsandboxedCommands: false }, 'linux', 'ls', true).sandboxed, true, 'the request is ignored when unsandboxed commands are not allowed');
    strict_1.default.deepEqual((0, policy_1.simpleCommands)('a && b || c; d | e & f\ng'), ['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    strict_1.default.equal((0, policy_1.excludedBy)('FOO=1 npm run test --watch', ['npm run test:*']), 'npm run test:*');
    strict_1.default.equal((0, policy_1.excludedBy)('git push origin main', ['git push *']), 'git push *');
    strict_1.default.equal((0, policy_1.excludedBy)('git pull', ['git push *']), undefined);
    strict_1.default.equal((0, policy_1.excludedBy)('npm run test:unit', ['npm run test:*']), undefined, 'the legacy :* is a word-boundary prefix');
});
(0, node_test_1.test)('unit: the runtime plan: writes in the working dirs and the session temp dir, credentials unreadable, network empty unless allowed', () => {
    const host = { home: '/home/u', sessionTmpDir: '/tmp/da-s1', platform: 'linux' };
    const p = (0, policy_1.runtimePlan)({}, ['/repo', '/shared'], host);
    strict_1.default.deepEqual(p.call.filesystem.allowWrite, ['/repo', '/shared', '/tmp/da-s1']);
    for (const cred of [
        '/home/u/.ssh',
        '/home/u/.aws',
        '/home/u/.gnupg',
        '/home/u/.config/gcloud',
        '/home/u/.durable-agent/settings.json',
    ]) {
        strict_1.default.ok(p.call.filesystem.denyRead.includes(cred), cred);
    }
    strict_1.default.equal(p.call.filesystem.denyRead.length, policy_1.DEFAULT_CREDENTIAL_PATHS.length);
    strict_1.default.deepEqual(p.allowedDomains, []);
    strict_1.default.deepEqual(p.global.network, { allowedDomains: [], deniedDomains: [] }, 'the worker-wide list stays empty: allowlists are per command');
    const q = (0, policy_1.runtimePlan)({
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
    }, ['/repo'], host);
    strict_1.default.deepEqual(q.allowedDomains, ['github.com']);
    strict_1.default.deepEqual(q.global.network.deniedDomains, ['x.github.com']);
    strict_1.default.equal(q.global.network.allowLocalBinding, true);
    strict_1.default.deepEqual(q.global.network.allowUnixSockets, ['/home/u/agent.sock']);
    strict_1.default.equal(q.global.enableWeakerNestedSandbox, true);
    strict_1.default.equal(q.call.allowNestedUserNamespaces, true);
    strict_1.default.ok(q.call.filesystem.allowWrite.includes('/home/u/.cache/tool'));
    strict_1.default.deepEqual(q.call.filesystem.denyWrite, ['/repo/.env']);
    strict_1.default.ok(q.call.filesystem.denyRead.includes('/repo/secrets'));
    strict_1.default.deepEqual(q.call.filesystem.allowRead, ['/home/u/.ssh/known_hosts']);
    // Two sessions that differ only in paths and allowlists share the worker-wide part (they run side by side).
    strict_1.default.deepEqual((0, policy_1.runtimePlan)({ network: { allowedDomains: ['a.com'] } }, ['/a'], host).global, (0, policy_1.runtimePlan)({ filesystem: { denyRead: ['/b'] } }, ['/b'], host).global);
});
(0, node_test_1.test)('unit: Read/Edit rules become sandbox paths, anchored at the project root', () => {
    const r = (0, policy_1.sandboxPathsFromRules)({
        allow: ['Edit(./build/**)', 'Bash(npm test)'],
        ask: [],
        deny: ['Read(./.env)', 'Read(.npmrc)', 'Edit(//etc/hosts)', 'Read(~/notes)', 'Read', 'Bash(curl:*)'],
    }, '/repo');
    strict_1.default.deepEqual(r, {
        denyRead: ['/repo/.env', '/repo/**/.npmrc', '~/notes'],
        denyWrite: ['/etc/hosts'],
        allowWrite: ['/repo/build/**'],
    });
});
(0, node_test_1.test)('unit: the one-line description says on/off/unavailable and what is contained', () => {
    strict_1.default.match((0, policy_1.describeSandbox)({}, 'linux', ['/repo']), /^on — Bash writes only in \/repo, the session temp dir; network: none; credentials .*unreadable/);
    strict_1.default.match((0, policy_1.describeSandbox)({ network: { allowedDomains: ['github.com'] } }, 'linux', ['/repo']), /network: github\.com/);
    strict_1.default.match((0, policy_1.describeSandbox)({ enabled: false }, 'linux', ['/repo']), /^off — /);
    strict_1.default.match((0, policy_1.describeSandbox)({}, 'linux', ['/repo'], 'bwrap not found'), /^unavailable — bwrap not found; Bash runs unsandboxed/);
    strict_1.default.match((0, policy_1.describeSandbox)({ failIfUnavailable: true }, 'linux', ['/repo'], 'bwrap not found'), /refused/);
});
(0, node_test_1.test)('unit: disableBypassPermissionsMode refuses a bypassPermissions session at start and in the workflow input check', () => {
    strict_1.default.throws(() => (0, client_1.sessionInput)({
        prompt: 'x',
        cwd: '/tmp',
        permissionMode: 'bypassPermissions',
        disableBypassPermissionsMode: true,
    }), (err) => err instanceof client_1.BypassDisabledError && /disableBypassPermissionsMode/.test(err.message));
    const input = (0, client_1.sessionInput)({
        prompt: 'x',
        cwd: '/tmp',
        permissionMode: 'default',
        disableBypassPermissionsMode: true,
    });
    strict_1.default.deepEqual((0, sessionInput_1.sessionInputProblems)(input), []);
    strict_1.default.deepEqual((0, sessionInput_1.sessionInputProblems)({ ...input, permissionMode: 'bypassPermissions' }), [
        'bypassPermissions mode is disabled by permissions.disableBypassPermissionsMode ("disable")',
    ]);
    strict_1.default.deepEqual(input.sandbox, {}, 'a session that says nothing gets the default sandbox (on)');
    const withRules = (0, client_1.sessionInput)({
        prompt: 'x',
        cwd: '/repo',
        rules: { allow: [], ask: [], deny: ['Read(./.env)'] },
        sandbox: { filesystem: { denyRead: ['/x'] } },
    });
    strict_1.default.deepEqual(withRules.sandbox?.filesystem?.denyRead, ['/x', '/repo/.env']);
});
//# sourceMappingURL=sandbox-policy.test.js.map