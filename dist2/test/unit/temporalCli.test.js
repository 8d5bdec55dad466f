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
// Unit: the order in which the `temporal` CLI binary is looked for.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const fs = __importStar(require("node:fs"));
const os = __importStar(require("node:os"));
const path = __importStar(require("node:path"));
const cli_1 = require("../../src/temporal/cli");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-cli-test-'));
(0, node_test_1.after)(() => fs.rmSync(tmp, { recursive: true, force: true }));
function fakeExecutable(dir, name = 'temporal') {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, name);
    fs.writeFileSync(file, '#!/bin/sh\necho fake\n', { mode: 0o755 });
    return file;
}
// No real PATH, HOME or cache: nothing on this machine can leak into the result.
const emptyEnv = (extra = {}) => ({
    PATH: path.join(tmp, 'empty-path'),
    HOME: path.join(tmp, 'home'),
    DURABLE_AGENT_CACHE_DIR: path.join(tmp, 'no-cache'),
    ...extra,
});
const quiet = { log: () => undefined };
(0, node_test_1.test)('unit: TEMPORAL_CLI_PATH pointing at a missing file is a clear error', async () => {
    const missing = path.join(tmp, 'nope', 'temporal');
    await strict_1.default.rejects((0, cli_1.resolveTemporalCli)({ ...quiet, env: emptyEnv({ TEMPORAL_CLI_PATH: missing }) }), (err) => {
        strict_1.default.match(err.message, /TEMPORAL_CLI_PATH=.*nope\/temporal does not exist/);
        return true;
    });
});
(0, node_test_1.test)('unit: TEMPORAL_CLI_PATH pointing at a non-executable file is a clear error', async () => {
    const file = path.join(tmp, 'not-exec');
    fs.writeFileSync(file, 'x', { mode: 0o644 });
    await strict_1.default.rejects((0, cli_1.resolveTemporalCli)({ ...quiet, env: emptyEnv({ TEMPORAL_CLI_PATH: file }) }), /not executable/);
});
(0, node_test_1.test)('unit: TEMPORAL_CLI_PATH wins over PATH and the cache', async () => {
    const fromEnv = fakeExecutable(path.join(tmp, 'env-bin'));
    const onPath = path.dirname(fakeExecutable(path.join(tmp, 'path-bin')));
    const r = await (0, cli_1.resolveTemporalCli)({ ...quiet, env: emptyEnv({ TEMPORAL_CLI_PATH: fromEnv, PATH: onPath }) });
    strict_1.default.deepEqual(r, { kind: 'path', path: fromEnv, source: 'env' });
});
(0, node_test_1.test)('unit: `temporal` on PATH wins over the cache', async () => {
    const cache = path.join(tmp, 'cache-1');
    fakeExecutable((0, cli_1.cachedCliDir)({ DURABLE_AGENT_CACHE_DIR: cache }));
    const dir = path.dirname(fakeExecutable(path.join(tmp, 'path-bin-2')));
    const r = await (0, cli_1.resolveTemporalCli)({
        ...quiet,
        env: emptyEnv({ PATH: `${path.join(tmp, 'empty')}${path.delimiter}${dir}`, DURABLE_AGENT_CACHE_DIR: cache }),
    });
    strict_1.default.deepEqual(r, { kind: 'path', path: path.join(dir, 'temporal'), source: 'path' });
});
(0, node_test_1.test)('unit: the cached build is used when nothing else is set', async () => {
    const cache = path.join(tmp, 'cache-2');
    const bin = fakeExecutable((0, cli_1.cachedCliDir)({ DURABLE_AGENT_CACHE_DIR: cache }));
    const r = await (0, cli_1.resolveTemporalCli)({ ...quiet, env: emptyEnv({ DURABLE_AGENT_CACHE_DIR: cache }) });
    strict_1.default.deepEqual(r, { kind: 'path', path: bin, source: 'cache' });
});
(0, node_test_1.test)('unit: cache folder honours DURABLE_AGENT_CACHE_DIR, then XDG_CACHE_HOME, then ~/.cache', () => {
    strict_1.default.equal((0, cli_1.cacheRoot)({ DURABLE_AGENT_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x', HOME: '/h' }), '/c');
    strict_1.default.equal((0, cli_1.cacheRoot)({ XDG_CACHE_HOME: '/x', HOME: '/h' }), '/x/durable-agent');
    strict_1.default.equal((0, cli_1.cacheRoot)({ HOME: '/h' }), '/h/.cache/durable-agent');
    strict_1.default.equal((0, cli_1.cachedCliDir)({ HOME: '/h' }), '/h/.cache/durable-agent/temporal-v1.5.1');
});
(0, node_test_1.test)('unit: with no binary and no Go, the SDK download is the last resort', async () => {
    const r = await (0, cli_1.resolveTemporalCli)({ ...quiet, env: emptyEnv() });
    strict_1.default.equal(r.kind, 'sdk-download');
});
(0, node_test_1.test)('unit: with nothing allowed, one error lists what was tried and how to fix it', async () => {
    await strict_1.default.rejects((0, cli_1.resolveTemporalCli)({ ...quiet, env: emptyEnv(), allowSdkDownload: false }), (err) => {
        strict_1.default.ok(err instanceof cli_1.TemporalCliNotFoundError);
        for (const part of [
            'TEMPORAL_CLI_PATH',
            'on PATH',
            'cached build',
            '`go` not on PATH',
            'install Go',
            'put `temporal` on PATH',
        ]) {
            strict_1.default.ok(err.message.includes(part), `message lacks "${part}":\n${err.message}`);
        }
        return true;
    });
});
(0, node_test_1.test)('unit: a failing Go build is reported and falls through', async () => {
    // A fake `go` that fails like a broken toolchain would.
    const goDir = path.join(tmp, 'fake-go');
    fs.mkdirSync(goDir, { recursive: true });
    fs.writeFileSync(path.join(goDir, 'go'), '#!/bin/sh\necho "go: module lookup disabled" >&2\nexit 1\n', {
        mode: 0o755,
    });
    const lines = [];
    await strict_1.default.rejects((0, cli_1.resolveTemporalCli)({ log: (l) => lines.push(l), env: emptyEnv({ PATH: goDir }), allowSdkDownload: false }), /go install github\.com\/temporalio\/cli\/cmd\/temporal@v1\.5\.1 with .*exited with 1: go: module lookup disabled/);
    strict_1.default.ok(lines.some((l) => l.includes('building')), 'no progress printed');
});
(0, node_test_1.test)('unit: a Go build that succeeds lands in the cache and is then found there', async () => {
    // A fake `go` that "installs" a script into $GOBIN, checking the arguments it was given.
    const goDir = path.join(tmp, 'fake-go-ok');
    fs.mkdirSync(goDir, { recursive: true });
    fs.writeFileSync(path.join(goDir, 'go'), '#!/bin/sh\n[ "$1 $2" = "install github.com/temporalio/cli/cmd/temporal@v1.5.1" ] || exit 2\nprintf "#!/bin/sh\\necho built\\n" > "$GOBIN/temporal" && /bin/chmod +x "$GOBIN/temporal"\n', { mode: 0o755 });
    const cache = path.join(tmp, 'cache-3');
    const env = emptyEnv({ PATH: goDir, DURABLE_AGENT_CACHE_DIR: cache });
    const first = await (0, cli_1.resolveTemporalCli)({ ...quiet, env });
    strict_1.default.deepEqual(first, { kind: 'path', path: path.join((0, cli_1.cachedCliDir)(env), 'temporal'), source: 'go-build' });
    const second = await (0, cli_1.resolveTemporalCli)({ ...quiet, env });
    strict_1.default.equal(second.kind === 'path' && second.source, 'cache');
    strict_1.default.deepEqual(fs.readdirSync((0, cli_1.cachedCliDir)(env)), ['temporal'], 'temporary build folder left behind');
});
//# sourceMappingURL=temporalCli.test.js.map