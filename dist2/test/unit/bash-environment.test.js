"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the pure parts of Bash's containment: the environment allowlist and `sandbox.passEnv`
// (values and their validation, errors naming file and key), the credential files the worker's
// environment points at, the worker's private paths in the per-call sandbox plan.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const environment_1 = require("../../src/sandbox/environment");
const policy_1 = require("../../src/sandbox/policy");
const settings_1 = require("../../src/sandbox/settings");
const settings_2 = require("../../src/cli/settings");
(0, node_test_1.test)('unit: bashEnvironment keeps the allowlist and passEnv, drops everything else', () => {
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
    strict_1.default.deepEqual((0, environment_1.bashEnvironment)(worker), { PATH: '/bin', HOME: '/h', LANG: 'C.UTF-8', LC_ALL: 'C', GOPATH: '/go' });
    strict_1.default.deepEqual(Object.keys((0, environment_1.bashEnvironment)(worker, ['FOO_TOKEN', 'AWS_*'])).sort(), [
        'AWS_SECRET_ACCESS_KEY',
        'FOO_TOKEN',
        'GOPATH',
        'HOME',
        'LANG',
        'LC_ALL',
        'PATH',
    ]);
    strict_1.default.equal((0, environment_1.bashEnvironment)(worker, ['*']).ANTHROPIC_API_KEY, undefined, 'a pattern never passes the worker credentials');
    strict_1.default.equal((0, environment_1.bashEnvironment)(worker, ['*']).DATABASE_URL, 'postgres://…', '* passes the rest');
    strict_1.default.equal((0, environment_1.bashEnvironment)(worker, ['ANTHROPIC_API_KEY']).ANTHROPIC_API_KEY, 'k', 'an exact name does');
});
(0, node_test_1.test)('unit: sandbox.passEnv is validated; a bad entry is an error naming the file and the key', () => {
    strict_1.default.deepEqual((0, settings_1.validateSandboxSettings)({ passEnv: ['FOO', 'NODE_*', '*'] }), []);
    for (const bad of ['FOO', ['FOO BAR'], ['$FOO'], [''], [3], ['A*B']]) {
        const p = (0, settings_1.validateSandboxSettings)({ passEnv: bad });
        strict_1.default.equal(p.length, 1, JSON.stringify(bad));
        strict_1.default.equal(p[0]?.level, 'error');
        strict_1.default.match(p[0]?.message ?? '', /^sandbox\.passEnv(\[\d\])? must be/);
    }
    const dir = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-passenv-'));
    const cwd = (0, node_path_1.join)(dir, 'repo');
    (0, node_fs_1.mkdirSync)((0, node_path_1.join)(cwd, '.durable-agent'), { recursive: true });
    const file = (0, node_path_1.join)(cwd, '.durable-agent', 'settings.json');
    (0, node_fs_1.writeFileSync)(file, JSON.stringify({ sandbox: { passEnv: ['GOOD', 'not-a-name'] } }));
    strict_1.default.throws(() => (0, settings_2.loadSettings)(cwd, [file]), (err) => err instanceof settings_2.SettingsError &&
        err.message.includes(file) &&
        /sandbox\.passEnv\[1\] must be an environment variable name/.test(err.message));
    // Lists from several files are concatenated.
    const user = (0, node_path_1.join)(dir, 'user.json');
    (0, node_fs_1.writeFileSync)(user, JSON.stringify({ sandbox: { passEnv: ['A'] } }));
    (0, node_fs_1.writeFileSync)(file, JSON.stringify({ sandbox: { passEnv: ['B_*'] } }));
    strict_1.default.deepEqual((0, settings_2.loadSettings)(cwd, [user, file]).sandbox?.passEnv, ['A', 'B_*']);
});
(0, node_test_1.test)('unit: credential files named by the environment: XDG and CLAUDE_CONFIG_DIR forms, TEMPORAL_TLS_*, GOOGLE_APPLICATION_CREDENTIALS, KUBECONFIG', () => {
    const got = (0, policy_1.credentialPathsFromEnv)({
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
    }, '/home/u', '/srv/worker');
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
        strict_1.default.ok(got.includes(p), `${p} in ${JSON.stringify(got)}`);
    strict_1.default.ok(!got.some((p) => p.includes('not-a-path') || p.includes('BEGIN') || p.includes('7233')), JSON.stringify(got));
    strict_1.default.deepEqual((0, policy_1.credentialPathsFromEnv)({}, '/home/u', '/'), []);
});
(0, node_test_1.test)("unit: the sandbox plan denies the worker's private paths to reads and writes, re-opens this session's results for reading only", () => {
    const plan = (0, policy_1.runtimePlan)({}, ['/w', '/store/results/s1'], {
        home: '/home/u',
        sessionTmpDir: '/tmp/durable-agent-sandbox/abc',
        platform: 'linux',
        env: { XDG_CONFIG_HOME: '/x/cfg' },
        cwd: '/srv',
        privatePaths: ['/store', '/home/u/.durable-agent'],
        ownResults: ['/store/results/s1'],
    }).call.filesystem;
    strict_1.default.ok(plan.denyRead.includes('/store') && plan.denyRead.includes('/home/u/.durable-agent'));
    strict_1.default.ok(plan.denyWrite.includes('/store') && plan.denyWrite.includes('/home/u/.durable-agent'));
    strict_1.default.ok(plan.denyRead.includes('/x/cfg/git/credentials'));
    strict_1.default.ok(plan.denyRead.includes('/home/u/.claude.json') && plan.denyRead.includes('/home/u/.config/git/credentials'));
    strict_1.default.deepEqual(plan.allowRead, ['/store/results/s1']);
    strict_1.default.deepEqual(plan.allowWrite, ['/w', '/tmp/durable-agent-sandbox/abc'], 'the results directory is not writable');
    strict_1.default.equal((0, policy_1.runtimePlan)({}, ['/w'], { home: '/h', sessionTmpDir: '/t', platform: 'linux' }).call.filesystem.denyRead.length, policy_1.DEFAULT_CREDENTIAL_PATHS.length);
});
(0, node_test_1.test)('unit: the sandbox line of run/status/audit names the variables sandbox.passEnv adds', async () => {
    const { describeSandbox } = await Promise.resolve().then(() => __importStar(require('../../src/sandbox/policy')));
    strict_1.default.match(describeSandbox({ passEnv: ['GOFLAGS', 'NPM_CONFIG_*'] }, 'linux', ['/w']), /; environment: the allowlist plus GOFLAGS, NPM_CONFIG_\* \(sandbox\.passEnv\)$/);
    strict_1.default.doesNotMatch(describeSandbox({}, 'linux', ['/w']), /environment/);
});
(0, node_test_1.test)("unit: the worker's private paths: its store, the default store, a file: store's directory, the data directory, what the embedder adds", async () => {
    const { workerPrivatePaths } = await Promise.resolve().then(() => __importStar(require('../../src/worker')));
    const { configuredBlobStore } = await Promise.resolve().then(() => __importStar(require('../../src/stores/configured')));
    const saved = { home: process.env.DURABLE_AGENT_HOME, dir: process.env.DURABLE_AGENT_STORE_DIR };
    process.env.DURABLE_AGENT_HOME = '/data/da';
    process.env.DURABLE_AGENT_STORE_DIR = '/data/default-store';
    try {
        const blobs = configuredBlobStore({ storeDir: '/w/store', store: 'file:///blobs/here' });
        strict_1.default.deepEqual(workerPrivatePaths('/w/store', blobs, ['/srv/dev.db']).sort(), [
            '/blobs/here',
            '/data/da',
            '/data/default-store',
            '/srv/dev.db',
            '/w/store',
        ]);
    }
    finally {
        for (const [k, v] of [
            ['DURABLE_AGENT_HOME', saved.home],
            ['DURABLE_AGENT_STORE_DIR', saved.dir],
        ]) {
            if (v === undefined)
                delete process.env[k];
            else
                process.env[k] = v;
        }
    }
});
//# sourceMappingURL=bash-environment.test.js.map