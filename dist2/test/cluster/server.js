"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TEMPORAL_SERVER_MODULE = exports.TEMPORAL_SERVER_VERSION = void 0;
exports.serverCacheDir = serverCacheDir;
exports.cachedServer = cachedServer;
exports.ensureServer = ensureServer;
exports.serverVersionOf = serverVersionOf;
// The production Temporal server for test:cluster and the bench's cluster row: the release
// binary (`temporal-server`) and its SQL schema tool (`temporal-sql-tool`), built once with Go from
// the module proxy and cached outside the repo, like the dev server's CLI (src/temporal/cli.ts).
//   node dist/test/cluster/server.js --ensure     resolve or build them; print the directory
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const cli_1 = require("../../src/temporal/cli");
/**
 * The server release everything here runs: docker-compose.yml's image tags must say the same
 * (test/unit/deploy-cluster.test.ts). Upgrade one minor version at a time, with the compose file.
 */
exports.TEMPORAL_SERVER_VERSION = '1.29.1';
exports.TEMPORAL_SERVER_MODULE = 'go.temporal.io/server';
/** `<cache>/temporal-server-<version>`: `$DURABLE_AGENT_CACHE_DIR`, else `$XDG_CACHE_HOME/durable-agent`, else `~/.cache/durable-agent`. */
function serverCacheDir(env = process.env) {
    return (0, node_path_1.join)((0, cli_1.cacheRoot)(env), `temporal-server-${exports.TEMPORAL_SERVER_VERSION}`);
}
function binariesIn(dir) {
    return { dir, server: (0, node_path_1.join)(dir, 'temporal-server'), sqlTool: (0, node_path_1.join)(dir, 'temporal-sql-tool') };
}
/** The cached binaries, or why they are not usable. */
function cachedServer(env = process.env) {
    const bin = binariesIn(serverCacheDir(env));
    for (const f of [bin.server, bin.sqlTool]) {
        const why = (0, cli_1.whyNotExecutable)(f);
        if (why)
            return {
                ok: false,
                why: `${f} ${why} (build it: node dist/test/cluster/server.js --ensure, a few minutes with Go)`,
            };
    }
    return { ok: true, bin };
}
/** `go` on PATH, or the usual /usr/local/go/bin/go. */
function findGo(env) {
    return (0, cli_1.findOnPath)('go', env.PATH) ?? ((0, node_fs_1.existsSync)('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
}
/** The cached binaries, built first with `go install` when they are missing. */
async function ensureServer(opts = {}) {
    const env = opts.env ?? process.env;
    const log = opts.log ?? ((line) => process.stderr.write(`${line}\n`));
    const cached = cachedServer(env);
    if (cached.ok)
        return cached.bin;
    const go = findGo(env);
    if (!go)
        throw new Error(`the Temporal server ${exports.TEMPORAL_SERVER_VERSION} is not built (${cached.why}) and \`go\` is not on PATH: install Go (https://go.dev/dl/)`);
    const dir = serverCacheDir(env);
    await (0, cli_1.goInstall)({
        go,
        dir,
        // A go found outside PATH still needs its own directory on PATH for the build's tools.
        env: { ...env, PATH: `${env.PATH ?? ''}:${(0, node_path_1.dirname)(go)}` },
        log,
        label: 'temporal-server',
        targets: [
            `${exports.TEMPORAL_SERVER_MODULE}/cmd/server@v${exports.TEMPORAL_SERVER_VERSION}`,
            `${exports.TEMPORAL_SERVER_MODULE}/cmd/tools/sql@v${exports.TEMPORAL_SERVER_VERSION}`,
        ],
        binaries: { server: 'temporal-server', sql: 'temporal-sql-tool' },
    });
    const built = cachedServer(env);
    if (!built.ok)
        throw new Error(`built, but ${built.why}`);
    return built.bin;
}
/** What `temporal-server --version` says (`temporal version 1.29.1`), for the drift check. */
function serverVersionOf(bin) {
    const r = (0, node_child_process_1.spawnSync)(bin.server, ['--version'], { encoding: 'utf8', timeout: 30_000 });
    return `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
}
if (require.main === module) {
    const argv = process.argv.slice(2);
    if (!argv.includes('--ensure')) {
        process.stdout.write('Usage: node dist/test/cluster/server.js --ensure\n  Resolve (or build with Go) the Temporal server and its SQL tool; print their directory.\n');
        process.exit(argv.length === 0 ? 0 : 2);
    }
    const t0 = Date.now();
    ensureServer().then((bin) => {
        process.stderr.write(`[temporal-server] ${bin.dir}: ${serverVersionOf(bin)} (${Date.now() - t0} ms)\n`);
        process.stdout.write(`${bin.dir}\n`);
    }, (err) => {
        process.stderr.write(`[temporal-server] ${err instanceof Error ? err.message : String(err)}\n`);
        process.exit(1);
    });
}
//# sourceMappingURL=server.js.map