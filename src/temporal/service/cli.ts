// Finds (or builds) the `temporal` CLI binary that runs the dev server. Also a tiny command:
// `node dist/src/temporal/service/cli.js --ensure` prints the resolved path (building it if needed).
import { DurableAgentError } from '../../core/errors';
import { startHostProcess } from '../../hostProcess/door';
import { programCacheRoot, trustedPath } from '../../hostProcess/programs';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The CLI release we build with Go. Later tags carry a `replace` directive that `go install` refuses. */
export const TEMPORAL_CLI_VERSION = 'v1.5.1';
export const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal';

export type TemporalCliSource = 'env' | 'path' | 'cache' | 'go-build';

export type TemporalCliResolution =
  | { kind: 'path'; path: string; source: TemporalCliSource }
  /**
   * No local binary: let `@temporalio/testing` download one (needs internet). `tried` lists what
   * was tried first, so a caller whose download also fails can say everything in one error.
   */
  | { kind: 'sdk-download'; tried: string[] };

export interface ResolveTemporalCliOptions {
  /** Environment to read (TEMPORAL_CLI_PATH, PATH, XDG_CACHE_HOME, DURABLE_AGENT_CACHE_DIR, HOME). Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Build with `go install` when Go is on PATH and nothing is cached. Default true. */
  allowGoBuild?: boolean;
  /** Return `{ kind: 'sdk-download' }` as a last resort instead of throwing. Default true. */
  allowSdkDownload?: boolean;
  /** Where progress lines go (the Go build takes minutes cold). Default: stderr. */
  log?: (line: string) => void;
}

export class TemporalCliNotFoundError extends DurableAgentError {
  constructor(
    readonly tried: string[],
    cause?: unknown,
  ) {
    super(
      'CLI_NOT_FOUND',
      [
        'Could not find or build the Temporal CLI (`temporal`). Tried:',
        ...tried.map((t) => `  - ${t}`),
        'Fix one of:',
        '  - set TEMPORAL_CLI_PATH to an executable `temporal` binary',
        `  - install Go (https://go.dev/dl/), then it is built once into the cache (${TEMPORAL_CLI_MODULE}@${TEMPORAL_CLI_VERSION})`,
        '  - put `temporal` on PATH (https://docs.temporal.io/cli)',
      ].join('\n'),
      cause === undefined ? undefined : { cause },
    );
  }
}

/** Where the built CLI and server are cached (src/hostProcess/programs.ts programCacheRoot). */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return programCacheRoot(env);
}

export function cachedCliDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(cacheRoot(env), `temporal-${TEMPORAL_CLI_VERSION}`);
}

const exeName = (name: string): string => (process.platform === 'win32' ? `${name}.exe` : name);

/** Why `file` is not a usable executable, or undefined if it is. */
export function whyNotExecutable(file: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return 'does not exist';
  }
  if (!stat.isFile()) return 'is not a file';
  try {
    fs.accessSync(file, fs.constants.X_OK);
  } catch {
    return 'is not executable (chmod +x it)';
  }
  return undefined;
}

/** First executable `name` on `pathVar`, like `command -v`. */
export function findOnPath(name: string, pathVar: string | undefined): string | undefined {
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, exeName(name));
    if (whyNotExecutable(candidate) === undefined) return candidate;
  }
  return undefined;
}

/**
 * Resolve the `temporal` binary. Order: TEMPORAL_CLI_PATH (must be executable, else an error);
 * `temporal` on PATH; the cached build; a fresh `go install` into the cache when Go is on PATH;
 * finally `{ kind: 'sdk-download' }` (the SDK downloads the CLI; needs internet).
 */
export async function resolveTemporalCli(opts: ResolveTemporalCliOptions = {}): Promise<TemporalCliResolution> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const tried: string[] = [];

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

  // On the trusted PATH only: npm's `<project>/node_modules/.bin` (first under `npx durable-agent
  // dev`) is where a session may plant a `temporal`, run with the person's whole environment (red
  // team, issue 30, J2).
  const searched = trustedPath(env.PATH);
  const onPath = findOnPath('temporal', searched);
  if (onPath) return { kind: 'path', path: onPath, source: 'path' };
  tried.push('`temporal` on PATH: not found');

  const dir = cachedCliDir(env);
  const cached = path.join(dir, exeName('temporal'));
  if (whyNotExecutable(cached) === undefined) return { kind: 'path', path: cached, source: 'cache' };
  tried.push(`cached build ${cached}: not there`);

  if (opts.allowGoBuild ?? true) {
    const go = findOnPath('go', searched);
    if (go) {
      try {
        await goInstallTemporal(go, dir, env, log);
        return { kind: 'path', path: cached, source: 'go-build' };
      } catch (err) {
        tried.push(`go install ${TEMPORAL_CLI_MODULE}@${TEMPORAL_CLI_VERSION} with ${go}: ${(err as Error).message}`);
      }
    } else {
      tried.push('building with Go: `go` not on PATH');
    }
  }

  if (opts.allowSdkDownload ?? true) return { kind: 'sdk-download', tried };
  throw new TemporalCliNotFoundError(tried);
}

/** Resolve, and insist on a local binary (no SDK download). */
export async function resolveTemporalCliPath(
  opts: Omit<ResolveTemporalCliOptions, 'allowSdkDownload'> = {},
): Promise<string> {
  const r = await resolveTemporalCli({ ...opts, allowSdkDownload: false });
  if (r.kind !== 'path') throw new TemporalCliNotFoundError(r.tried);
  return r.path;
}

/**
 * `GOBIN=<tmp> go install module@version`, then an atomic rename into `dir`, so a concurrent
 * resolver never sees a half-written binary.
 */
async function goInstallTemporal(
  go: string,
  dir: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<void> {
  await goInstall({
    go,
    dir,
    env,
    log,
    label: 'temporal-cli',
    targets: [`${TEMPORAL_CLI_MODULE}@${TEMPORAL_CLI_VERSION}`],
    binaries: { temporal: 'temporal' },
  });
}

export interface GoInstallOptions {
  /** The `go` binary. */
  go: string;
  /** `module/cmd/x@version`, one or more (one `go install` builds them all). */
  targets: string[];
  /** Where the binaries end up (created if needed). */
  dir: string;
  /** Built name → final name in `dir` (`server` → `temporal-server`). */
  binaries: Record<string, string>;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** Prefix of the progress lines. */
  label: string;
}

/**
 * `GOBIN=<tmp> go install <targets>`, then an atomic rename of each binary into `dir`, so a
 * concurrent resolver never sees a half-written one. Progress lines every 30 s (a cold build takes minutes).
 */
export async function goInstall(opts: GoInstallOptions): Promise<void> {
  const { go, dir, env, log, label } = opts;
  fs.mkdirSync(dir, { recursive: true });
  const tmpBin = fs.mkdtempSync(path.join(dir, '.build-'));
  const started = Date.now();
  log(
    `[${label}] building ${opts.targets.join(' ')} with ${go} into ${dir} (takes several minutes on a cold machine)...`,
  );
  const ticker = setInterval(() => {
    log(`[${label}] still building... ${Math.round((Date.now() - started) / 1000)}s`);
  }, 30_000);
  try {
    const tail: string[] = [];
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = startHostProcess({
        purpose: 'operator',
        command: go,
        args: ['install', ...opts.targets],
        from: env,
        // GOFLAGS from the caller (-mod=vendor, say) would break a module-mode install.
        env: { GOBIN: tmpBin, GOFLAGS: '', GO111MODULE: 'on' },
        // Its own empty build directory: the door refuses a program lying under the process directory it runs in.
        cwd: tmpBin,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const onData = (buf: Buffer): void => {
        for (const line of buf.toString().split('\n')) {
          if (!line.trim()) continue;
          tail.push(line);
          if (tail.length > 20) tail.shift();
          log(`[${label}] ${line}`);
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.on('error', reject);
      child.on('close', resolve);
    });
    if (code !== 0) {
      throw new Error(`exited with ${code}: ${tail.slice(-3).join(' | ') || 'no output'}`);
    }
    for (const [built, final] of Object.entries(opts.binaries)) {
      const file = path.join(tmpBin, exeName(built));
      if (whyNotExecutable(file)) throw new Error(`finished but produced no ${file}`);
      fs.renameSync(file, path.join(dir, exeName(final)));
    }
    log(`[${label}] built in ${Math.round((Date.now() - started) / 1000)}s`);
  } finally {
    clearInterval(ticker);
    fs.rmSync(tmpBin, { recursive: true, force: true });
  }
}

async function main(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h') || argv.length === 0) {
    process.stdout.write(
      'Usage: node dist/src/temporal/service/cli.js --ensure [--json]\n' +
        '  Resolve the Temporal CLI (TEMPORAL_CLI_PATH, PATH, cache, Go build) and print its path.\n' +
        '  Without a local binary it says so on stderr (the SDK would download one) and prints nothing.\n',
    );
    return;
  }
  const started = Date.now();
  const r = await resolveTemporalCli();
  const ms = Date.now() - started;
  if (argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify({ ...r, ms })}\n`);
  } else if (r.kind === 'path') {
    process.stderr.write(`[temporal-cli] ${r.path} (from ${r.source}, ${ms} ms)\n`);
    process.stdout.write(`${r.path}\n`);
  } else {
    process.stderr.write(
      `[temporal-cli] no local binary; the Temporal SDK will download one at start-up (needs internet). Tried:\n` +
        r.tried.map((t) => `  - ${t}\n`).join(''),
    );
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
