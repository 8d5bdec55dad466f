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
Object.defineProperty(exports, "__esModule", { value: true });
exports.TemporalCliNotFoundError = exports.TEMPORAL_CLI_MODULE = exports.TEMPORAL_CLI_VERSION = void 0;
exports.cacheRoot = cacheRoot;
exports.cachedCliDir = cachedCliDir;
exports.whyNotExecutable = whyNotExecutable;
exports.findOnPath = findOnPath;
exports.resolveTemporalCli = resolveTemporalCli;
exports.resolveTemporalCliPath = resolveTemporalCliPath;
exports.goInstall = goInstall;
// Finds (or builds) the `temporal` CLI binary that runs the dev server. Also a tiny command:
// `node dist/src/temporal/cli.js --ensure` prints the resolved path (building it if needed).
const errors_1 = require("../engine/errors");
const node_child_process_1 = require("node:child_process");
const fs = __importStar(require("node:fs"));
const os = __importStar(require("node:os"));
const path = __importStar(require("node:path"));
/** The CLI release we build with Go. Later tags carry a `replace` directive that `go install` refuses. */
exports.TEMPORAL_CLI_VERSION = 'v1.5.1';
exports.TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal';
class TemporalCliNotFoundError extends errors_1.DurableAgentError {
    tried;
    constructor(tried, cause) {
        super('CLI_NOT_FOUND', [
            'Could not find or build the Temporal CLI (`temporal`). Tried:',
            ...tried.map((t) => `  - ${t}`),
            'Fix one of:',
            '  - set TEMPORAL_CLI_PATH to an executable `temporal` binary',
            `  - install Go (https://go.dev/dl/), then it is built once into the cache (${exports.TEMPORAL_CLI_MODULE}@${exports.TEMPORAL_CLI_VERSION})`,
            '  - put `temporal` on PATH (https://docs.temporal.io/cli)',
        ].join('\n'), cause === undefined ? undefined : { cause });
        this.tried = tried;
    }
}
exports.TemporalCliNotFoundError = TemporalCliNotFoundError;
/** `$DURABLE_AGENT_CACHE_DIR`, else `$XDG_CACHE_HOME/durable-agent`, else `~/.cache/durable-agent`. */
function cacheRoot(env = process.env) {
    if (env.DURABLE_AGENT_CACHE_DIR)
        return path.resolve(env.DURABLE_AGENT_CACHE_DIR);
    const xdg = env.XDG_CACHE_HOME;
    // XDG says a relative value is invalid and must be ignored.
    const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME || os.homedir(), '.cache');
    return path.join(base, 'durable-agent');
}
function cachedCliDir(env = process.env) {
    return path.join(cacheRoot(env), `temporal-${exports.TEMPORAL_CLI_VERSION}`);
}
const exeName = (name) => (process.platform === 'win32' ? `${name}.exe` : name);
/** Why `file` is not a usable executable, or undefined if it is. */
function whyNotExecutable(file) {
    let stat;
    try {
        stat = fs.statSync(file);
    }
    catch {
        return 'does not exist';
    }
    if (!stat.isFile())
        return 'is not a file';
    try {
        fs.accessSync(file, fs.constants.X_OK);
    }
    catch {
        return 'is not executable (chmod +x it)';
    }
    return undefined;
}
/** First executable `name` on `pathVar`, like `command -v`. */
function findOnPath(name, pathVar) {
    for (const dir of (pathVar ?? '').split(path.delimiter)) {
        if (!dir)
            continue;
        const candidate = path.join(dir, exeName(name));
        if (whyNotExecutable(candidate) === undefined)
            return candidate;
    }
    return undefined;
}
/**
 * Resolve the `temporal` binary. Order: TEMPORAL_CLI_PATH (must be executable, else an error);
 * `temporal` on PATH; the cached build; a fresh `go install` into the cache when Go is on PATH;
 * finally `{ kind: 'sdk-download' }` (the SDK downloads the CLI; needs internet).
 */
async function resolveTemporalCli(opts = {}) {
    const env = opts.env ?? process.env;
    const log = opts.log ?? ((line) => process.stderr.write(`${line}\n`));
    const tried = [];
    const fromEnv = env.TEMPORAL_CLI_PATH;
    if (fromEnv) {
        const file = path.resolve(fromEnv);
        const why = whyNotExecutable(file);
        if (why) {
            // An explicit setting that is wrong is a mistake to report, not a reason to look elsewhere.
            throw new Error(`TEMPORAL_CLI_PATH=${fromEnv} ${why}. Point it at the \`temporal\` binary, or unset it.`);
        }
        return { kind: 'path', path: file, source: 'env' };
    }
    tried.push('TEMPORAL_CLI_PATH: not set');
    const onPath = findOnPath('temporal', env.PATH);
    if (onPath)
        return { kind: 'path', path: onPath, source: 'path' };
    tried.push('`temporal` on PATH: not found');
    const dir = cachedCliDir(env);
    const cached = path.join(dir, exeName('temporal'));
    if (whyNotExecutable(cached) === undefined)
        return { kind: 'path', path: cached, source: 'cache' };
    tried.push(`cached build ${cached}: not there`);
    if (opts.allowGoBuild ?? true) {
        const go = findOnPath('go', env.PATH);
        if (go) {
            try {
                await goInstallTemporal(go, dir, env, log);
                return { kind: 'path', path: cached, source: 'go-build' };
            }
            catch (err) {
                tried.push(`go install ${exports.TEMPORAL_CLI_MODULE}@${exports.TEMPORAL_CLI_VERSION} with ${go}: ${err.message}`);
            }
        }
        else {
            tried.push('building with Go: `go` not on PATH');
        }
    }
    if (opts.allowSdkDownload ?? true)
        return { kind: 'sdk-download', tried };
    throw new TemporalCliNotFoundError(tried);
}
/** Resolve, and insist on a local binary (no SDK download). */
async function resolveTemporalCliPath(opts = {}) {
    const r = await resolveTemporalCli({ ...opts, allowSdkDownload: false });
    if (r.kind !== 'path')
        throw new TemporalCliNotFoundError(r.tried);
    return r.path;
}
/**
 * `GOBIN=<tmp> go install module@version`, then an atomic rename into `dir`, so a concurrent
 * resolver never sees a half-written binary.
 */
async function goInstallTemporal(go, dir, env, log) {
    await goInstall({
        go,
        dir,
        env,
        log,
        label: 'temporal-cli',
        targets: [`${exports.TEMPORAL_CLI_MODULE}@${exports.TEMPORAL_CLI_VERSION}`],
        binaries: { temporal: 'temporal' },
    });
}
/**
 * `GOBIN=<tmp> go install <targets>`, then an atomic rename of each binary into `dir`, so a
 * concurrent resolver never sees a half-written one. Progress lines every 30 s (a cold build takes minutes).
 */
async function goInstall(opts) {
    const { go, dir, env, log, label } = opts;
    fs.mkdirSync(dir, { recursive: true });
    const tmpBin = fs.mkdtempSync(path.join(dir, '.build-'));
    const started = Date.now();
    log(`[${label}] building ${opts.targets.join(' ')} with ${go} into ${dir} (takes several minutes on a cold machine)...`);
    const ticker = setInterval(() => {
        log(`[${label}] still building... ${Math.round((Date.now() - started) / 1000)}s`);
    }, 30_000);
    try {
        const tail = [];
        const code = await new Promise((resolve, reject) => {
            const child = (0, node_child_process_1.spawn)(go, ['install', ...opts.targets], {
                // GOFLAGS from the caller (-mod=vendor, say) would break a module-mode install.
                env: { ...env, GOBIN: tmpBin, GOFLAGS: '', GO111MODULE: 'on' },
                cwd: os.tmpdir(),
                stdio: ['ignore', 'pipe', 'pipe'],
            });
            const onData = (buf) => {
                for (const line of buf.toString().split('\n')) {
                    if (!line.trim())
                        continue;
                    tail.push(line);
                    if (tail.length > 20)
                        tail.shift();
                    log(`[${label}] ${line}`);
                }
            };
            child.stdout.on('data', onData);
            child.stderr.on('data', onData);
            child.on('error', reject);
            child.on('close', resolve);
        });
        if (code !== 0) {
            throw new Error(`exited with ${code}: ${tail.slice(-3).join(' | ') || 'no output'}`);
        }
        for (const [built, final] of Object.entries(opts.binaries)) {
            const file = path.join(tmpBin, exeName(built));
            if (whyNotExecutable(file))
                throw new Error(`finished but produced no ${file}`);
            fs.renameSync(file, path.join(dir, exeName(final)));
        }
        log(`[${label}] built in ${Math.round((Date.now() - started) / 1000)}s`);
    }
    finally {
        clearInterval(ticker);
        fs.rmSync(tmpBin, { recursive: true, force: true });
    }
}
async function main(argv) {
    if (argv.includes('--help') || argv.includes('-h') || argv.length === 0) {
        process.stdout.write('Usage: node dist/src/temporal/cli.js --ensure [--json]\n' +
            '  Resolve the Temporal CLI (TEMPORAL_CLI_PATH, PATH, cache, Go build) and print its path.\n' +
            '  Without a local binary it says so on stderr (the SDK would download one) and prints nothing.\n');
        return;
    }
    const started = Date.now();
    const r = await resolveTemporalCli();
    const ms = Date.now() - started;
    if (argv.includes('--json')) {
        process.stdout.write(`${JSON.stringify({ ...r, ms })}\n`);
    }
    else if (r.kind === 'path') {
        process.stderr.write(`[temporal-cli] ${r.path} (from ${r.source}, ${ms} ms)\n`);
        process.stdout.write(`${r.path}\n`);
    }
    else {
        process.stderr.write(`[temporal-cli] no local binary; the Temporal SDK will download one at start-up (needs internet). Tried:\n` +
            r.tried.map((t) => `  - ${t}\n`).join(''));
    }
}
if (require.main === module) {
    main(process.argv.slice(2)).catch((err) => {
        process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
        process.exit(1);
    });
}
//# sourceMappingURL=cli.js.map