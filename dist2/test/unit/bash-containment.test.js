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
// unit: what Bash cannot reach on the worker, tried on the real OS sandbox (bubblewrap) with a fake
// HOME full of bait: every default credential path, the XDG / CLAUDE_CONFIG_DIR forms, files named
// by the worker's environment, the store (other sessions' results and transcripts), the worker's
// environment variables. Oracles are what the command printed and what is on disk, never the
// tool's words. Needs bwrap, socat and ripgrep (as test/unit/sandbox-bash.test.ts).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const path = __importStar(require("node:path"));
const bash_1 = require("../../src/tools/builtin/bash");
const host_1 = require("../../src/sandbox/host");
const policy_1 = require("../../src/sandbox/policy");
const resultStore_1 = require("../../src/tools/resultStore");
const systemPackages_1 = require("../support/systemPackages");
const tools_harness_1 = require("./tools-harness");
/** Bash's sandbox in these tests (the worker's start-up owns one: src/workerDeps.ts). */
const sandboxHost = new host_1.SandboxHost();
let skip = false;
let root = '';
let home = '';
let work = '';
let store = '';
let ownResults;
const saved = {};
/** Worker variables set for these tests (restored after). */
const BAIT_ENV = {
    FOO_TOKEN: 'bait-env-foo',
    DATABASE_URL: 'postgres://u:bait-env-db@h/db',
    AWS_ACCESS_KEY_ID: 'bait-env-akid',
    AWS_SECRET_ACCESS_KEY: 'bait-env-aws',
    AWS_SESSION_TOKEN: 'bait-env-awss',
    CLAUDE_CODE_OAUTH_TOKEN: 'bait-env-oauth',
    OPENAI_API_KEY: 'bait-env-openai',
    ANTHROPIC_API_KEY: 'bait-env-anthropic',
    DURABLE_AGENT_STORE: 'postgres://u:bait-env-store@h/db',
    GOOGLE_APPLICATION_CREDENTIALS: '', // set in before(): a file outside HOME
    TEMPORAL_TLS_CLIENT_KEY_PATH: '',
    XDG_CONFIG_HOME: '',
    CLAUDE_CONFIG_DIR: '',
};
/** A bait file for each default credential path (a directory entry gets a file inside). */
function baitFileFor(entry) {
    const rel = entry.replace(/^~\//, '').replace(/\*$/, '.1');
    const isFile = /\.(json|toml|cnf|tfrc\.json)$|\/(credentials|auth\.json|config\.json)$|^\.(netrc|npmrc|pypirc|git-credentials|vault-token|pgpass|my\.cnf)$|backup\.1$/.test(rel);
    return isFile ? rel : path.join(rel, 'secret');
}
(0, node_test_1.before)(async () => {
    const a = await sandboxHost.availability();
    if (!a.available) {
        if ((0, systemPackages_1.isCI)())
            throw new Error(`the sandbox must be available in CI: ${a.reason}`);
        skip = `sandbox unavailable here: ${a.reason}`;
        (0, systemPackages_1.reportSkip)(`the Bash containment tests (sandbox unavailable: ${a.reason})`);
        return;
    }
    root = await (0, tools_harness_1.makeTmpDir)('da-contain-');
    home = path.join(root, 'home');
    work = path.join(root, 'work');
    store = path.join(root, 'store');
    await node_fs_1.promises.mkdir(work, { recursive: true });
    for (const entry of policy_1.DEFAULT_CREDENTIAL_PATHS) {
        const f = path.join(home, baitFileFor(entry));
        await node_fs_1.promises.mkdir(path.dirname(f), { recursive: true });
        await node_fs_1.promises.writeFile(f, `BAIT-FILE ${entry}\n`);
    }
    await node_fs_1.promises.writeFile(path.join(home, 'notes.txt'), 'PLAIN-HOME-FILE\n');
    // Relocated forms and files the environment names, outside HOME.
    const xdg = path.join(root, 'xdg');
    const claudeDir = path.join(root, 'claude-config');
    const keys = path.join(root, 'keys');
    for (const [f, text] of [
        [path.join(xdg, 'git', 'credentials'), 'BAIT-FILE xdg git\n'],
        [path.join(xdg, 'temporalio', 'temporal.toml'), 'BAIT-FILE xdg temporal\n'],
        [path.join(claudeDir, '.claude.json'), 'BAIT-FILE claude config dir\n'],
        [path.join(claudeDir, '.credentials.json'), 'BAIT-FILE claude credentials\n'],
        [path.join(keys, 'temporal-client.key'), 'BAIT-FILE temporal key\n'],
        [path.join(keys, 'gcp.json'), 'BAIT-FILE gcp\n'],
        [path.join(keys, 'public.txt'), 'PLAIN-KEYS-FILE\n'],
    ]) {
        await node_fs_1.promises.mkdir(path.dirname(f), { recursive: true });
        await node_fs_1.promises.writeFile(f, text);
    }
    BAIT_ENV.XDG_CONFIG_HOME = xdg;
    BAIT_ENV.CLAUDE_CONFIG_DIR = claudeDir;
    BAIT_ENV.TEMPORAL_TLS_CLIENT_KEY_PATH = path.join(keys, 'temporal-client.key');
    BAIT_ENV.GOOGLE_APPLICATION_CREDENTIALS = path.join(keys, 'gcp.json');
    // The store: this session's results, another session's results and transcripts.
    ownResults = new resultStore_1.LocalResultStore(path.join(store, 'results', 'this-session'));
    await ownResults.put('toolu_own', 'OWN-RESULT\n');
    await node_fs_1.promises.mkdir(path.join(store, 'results', 'other-session'), { recursive: true });
    await node_fs_1.promises.writeFile(path.join(store, 'results', 'other-session', 'toolu_x.txt'), 'BAIT-STORE other result\n');
    await node_fs_1.promises.mkdir(path.join(store, 'blobs', 'ab'), { recursive: true });
    await node_fs_1.promises.writeFile(path.join(store, 'blobs', 'ab', 'abcdef'), 'BAIT-STORE transcript\n');
    for (const k of ['HOME', ...Object.keys(BAIT_ENV)])
        saved[k] = process.env[k];
    process.env.HOME = home;
    Object.assign(process.env, BAIT_ENV);
});
(0, node_test_1.after)(async () => {
    for (const [k, v] of Object.entries(saved)) {
        if (v === undefined)
            delete process.env[k];
        else
            process.env[k] = v;
    }
    await sandboxHost.close();
    if (root)
        await (0, tools_harness_1.removeDir)(root);
});
function ctx(sandbox, results = ownResults) {
    return {
        sessionId: 'contain-session',
        toolUseId: 'toolu_c',
        idempotencyKey: 'k',
        agent: { cwd: work, additionalDirectories: [], readFiles: {} },
        // As the activities build it: the result directory counts as a working directory (for Read).
        permission: {
            mode: 'bypassPermissions',
            rules: { allow: [], ask: [], deny: [] },
            workingDirectories: [work, ownResults.dir],
            ...(sandbox ? { sandbox } : {}),
        },
        abortSignal: new AbortController().signal,
        sandboxHost,
        resultStore: results,
        privatePaths: [store],
    };
}
async function bash(command, sandbox = {}) {
    return bash_1.BashTool.call({ command }, ctx(sandbox), () => undefined);
}
(0, node_test_1.test)('unit: sandboxed Bash reads none of the credential files: every default path, XDG and CLAUDE_CONFIG_DIR forms, files the environment names', async (t) => {
    if (skip)
        return t.skip(skip);
    const dirs = [
        home,
        BAIT_ENV.XDG_CONFIG_HOME,
        BAIT_ENV.CLAUDE_CONFIG_DIR,
        path.dirname(BAIT_ENV.TEMPORAL_TLS_CLIENT_KEY_PATH),
    ];
    // Every file under the directories, by name (find and cat: a listing and a read, both tried).
    const r = await bash(`for d in ${dirs.map((d) => `'${d}'`).join(' ')}; do find "$d" -type f -exec cat {} + 2>/dev/null; done; cat ~/.claude.json ~/.config/git/credentials 2>&1; true`);
    strict_1.default.equal(r.data.sandbox?.sandboxed, true);
    strict_1.default.match(r.data.output, /PLAIN-HOME-FILE/, 'the command ran and read the home directory');
    strict_1.default.match(r.data.output, /PLAIN-KEYS-FILE/, 'and the key directory');
    strict_1.default.doesNotMatch(r.data.output, /BAIT-FILE/, r.data.output);
    // Without the sandbox the same command does print them: the sandbox is what hid them.
    const off = await bash(`cat ~/.claude.json '${BAIT_ENV.TEMPORAL_TLS_CLIENT_KEY_PATH}'`, { enabled: false });
    strict_1.default.match(off.data.output, /BAIT-FILE ~\/\.claude\.json[\s\S]*BAIT-FILE temporal key/);
});
(0, node_test_1.test)("unit: the store is out of sandboxed Bash's reach: other sessions' results and transcripts unreadable, nothing writable; this session's results readable", async (t) => {
    if (skip)
        return t.skip(skip);
    const own = path.join(ownResults.dir, 'toolu_own.txt');
    const r = await bash(`cat '${own}'; grep -r . '${store}' 2>/dev/null; ls -R '${store}' 2>/dev/null; ` +
        `echo planted > '${store}/results/other-session/planted.txt'; echo planted > '${ownResults.dir}/planted.txt'; echo x >> '${own}'; ` +
        `echo planted > '${store}/blobs/planted'; true`);
    strict_1.default.equal(r.data.sandbox?.sandboxed, true);
    strict_1.default.match(r.data.output, /OWN-RESULT/, "this session's large result stays readable");
    strict_1.default.doesNotMatch(r.data.output, /BAIT-STORE/, r.data.output);
    strict_1.default.doesNotMatch(r.data.output, /toolu_x|abcdef/, 'not even the names');
    for (const f of ['results/other-session/planted.txt', 'results/this-session/planted.txt', 'blobs/planted'])
        strict_1.default.equal((0, node_fs_1.existsSync)(path.join(store, f)), false, f);
    strict_1.default.equal(await node_fs_1.promises.readFile(own, 'utf8'), 'OWN-RESULT\n', "this session's result is not writable either");
    strict_1.default.equal(await node_fs_1.promises.readFile(path.join(store, 'results', 'other-session', 'toolu_x.txt'), 'utf8'), 'BAIT-STORE other result\n');
    // The working directory and TMPDIR stay writable.
    const w = await bash('echo ok > here.txt && echo ok > "$TMPDIR/t" && cat here.txt "$TMPDIR/t"');
    strict_1.default.equal(w.data.output, 'ok\nok\n');
});
const BAIT_VALUES = /bait-env/;
(0, node_test_1.test)("unit: Bash gets an allowlist of the worker's environment, sandboxed and not; sandbox.passEnv adds names", async (t) => {
    if (skip)
        return t.skip(skip);
    for (const sandbox of [{}, { enabled: false }]) {
        const r = await bash('env', sandbox);
        const label = sandbox.enabled === false ? 'unsandboxed' : 'sandboxed';
        strict_1.default.equal(r.data.exitCode, 0, r.data.output);
        strict_1.default.equal(r.data.sandbox?.sandboxed, sandbox.enabled !== false);
        strict_1.default.doesNotMatch(r.data.output, BAIT_VALUES, `${label}: ${r.data.output}`);
        for (const name of Object.keys(BAIT_ENV)) {
            if (name === 'XDG_CONFIG_HOME')
                continue; // allowlisted (a directory, not a secret)
            strict_1.default.doesNotMatch(r.data.output, new RegExp(`^${name}=`, 'm'), `${label}: ${name}`);
        }
        strict_1.default.match(r.data.output, new RegExp(`^HOME=${home}$`, 'm'), label);
        strict_1.default.match(r.data.output, /^PATH=/m, label);
    }
    // Added names pass; a pattern never passes the worker's own credentials, an exact name does.
    for (const sandbox of [
        { passEnv: ['FOO_TOKEN', 'AWS_*', '*'] },
        { enabled: false, passEnv: ['FOO_TOKEN', 'AWS_*', '*'] },
    ]) {
        const r = await bash('env', sandbox);
        strict_1.default.match(r.data.output, /^FOO_TOKEN=bait-env-foo$/m);
        strict_1.default.match(r.data.output, /^AWS_SECRET_ACCESS_KEY=bait-env-aws$/m);
        strict_1.default.doesNotMatch(r.data.output, /bait-env-(anthropic|oauth|store)/, 'a pattern does not pass the worker credentials');
    }
    const named = await bash('echo "[$ANTHROPIC_API_KEY]"', { passEnv: ['ANTHROPIC_API_KEY'] });
    strict_1.default.equal(named.data.output, '[bait-env-anthropic]\n');
});
(0, node_test_1.test)("unit: a working directory or temp directory inside the worker's private state is refused with a clear error, not run read-only", async (t) => {
    if (skip)
        return t.skip(skip);
    const inside = path.join(store, 'project');
    await node_fs_1.promises.mkdir(inside, { recursive: true });
    const c = { ...ctx({}), agent: { cwd: inside, additionalDirectories: [], readFiles: {} } };
    c.permission = { ...c.permission, workingDirectories: [inside] };
    await strict_1.default.rejects(bash_1.BashTool.call({ command: 'echo hi > f' }, c, () => undefined), new RegExp(`the working directory ${inside} is inside ${store}, the worker's own state`));
    strict_1.default.equal((0, node_fs_1.existsSync)(path.join(inside, 'f')), false);
    const savedTmp = process.env.TMPDIR;
    process.env.TMPDIR = path.join(store, 'tmp');
    await node_fs_1.promises.mkdir(process.env.TMPDIR, { recursive: true });
    try {
        await strict_1.default.rejects(bash('echo hi'), /the session's temp directory .* is inside .*the worker's own state/);
    }
    finally {
        if (savedTmp === undefined)
            delete process.env.TMPDIR;
        else
            process.env.TMPDIR = savedTmp;
    }
});
//# sourceMappingURL=bash-containment.test.js.map