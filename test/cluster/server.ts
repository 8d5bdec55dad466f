// The production Temporal server for test:cluster and the bench's cluster row: the release
// binary (`temporal-server`) and its SQL schema tool (`temporal-sql-tool`), built once with Go from
// the module proxy and cached outside the repo, like the dev server's CLI (src/temporal/service/cli.ts).
//   node dist/test/cluster/server.js --ensure     resolve or build them; print the directory
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cacheRoot, findOnPath, goInstall, whyNotExecutable } from '../../src/temporal/service/cli';

/**
 * The server release everything here runs: docker-compose.yml's image tags must say the same
 * (test/unit/deploy-cluster.test.ts). Upgrade one minor version at a time, with the compose file.
 */
export const TEMPORAL_SERVER_VERSION = '1.29.1';
export const TEMPORAL_SERVER_MODULE = 'go.temporal.io/server';

export interface ServerBinaries {
  dir: string;
  server: string;
  sqlTool: string;
}

/** `<cache>/temporal-server-<version>`: `$DURABLE_AGENT_CACHE_DIR`, else `$XDG_CACHE_HOME/durable-agent`, else `~/.cache/durable-agent`. */
export function serverCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), `temporal-server-${TEMPORAL_SERVER_VERSION}`);
}

function binariesIn(dir: string): ServerBinaries {
  return { dir, server: join(dir, 'temporal-server'), sqlTool: join(dir, 'temporal-sql-tool') };
}

/** The cached binaries, or why they are not usable. */
export function cachedServer(
  env: NodeJS.ProcessEnv = process.env,
): { ok: true; bin: ServerBinaries } | { ok: false; why: string } {
  const bin = binariesIn(serverCacheDir(env));
  for (const f of [bin.server, bin.sqlTool]) {
    const why = whyNotExecutable(f);
    if (why)
      return {
        ok: false,
        why: `${f} ${why} (build it: node dist/test/cluster/server.js --ensure, a few minutes with Go)`,
      };
  }
  return { ok: true, bin };
}

/** `go` on PATH, or the usual /usr/local/go/bin/go. */
function findGo(env: NodeJS.ProcessEnv): string | undefined {
  return findOnPath('go', env.PATH) ?? (existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
}

/** The cached binaries, built first with `go install` when they are missing. */
export async function ensureServer(
  opts: { env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {},
): Promise<ServerBinaries> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const cached = cachedServer(env);
  if (cached.ok) return cached.bin;
  const go = findGo(env);
  if (!go)
    throw new Error(
      `the Temporal server ${TEMPORAL_SERVER_VERSION} is not built (${cached.why}) and \`go\` is not on PATH: install Go (https://go.dev/dl/)`,
    );
  const dir = serverCacheDir(env);
  await goInstall({
    go,
    dir,
    // A go found outside PATH still needs its own directory on PATH for the build's tools.
    env: { ...env, PATH: `${env.PATH ?? ''}:${dirname(go)}` },
    log,
    label: 'temporal-server',
    targets: [
      `${TEMPORAL_SERVER_MODULE}/cmd/server@v${TEMPORAL_SERVER_VERSION}`,
      `${TEMPORAL_SERVER_MODULE}/cmd/tools/sql@v${TEMPORAL_SERVER_VERSION}`,
    ],
    binaries: { server: 'temporal-server', sql: 'temporal-sql-tool' },
  });
  const built = cachedServer(env);
  if (!built.ok) throw new Error(`built, but ${built.why}`);
  return built.bin;
}

/** What `temporal-server --version` says (`temporal version 1.29.1`), for the drift check. */
export function serverVersionOf(bin: ServerBinaries): string {
  const r = spawnSync(bin.server, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  return `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  if (!argv.includes('--ensure')) {
    process.stdout.write(
      'Usage: node dist/test/cluster/server.js --ensure\n  Resolve (or build with Go) the Temporal server and its SQL tool; print their directory.\n',
    );
    process.exit(argv.length === 0 ? 0 : 2);
  }
  const t0 = Date.now();
  ensureServer().then(
    (bin) => {
      process.stderr.write(`[temporal-server] ${bin.dir}: ${serverVersionOf(bin)} (${Date.now() - t0} ms)\n`);
      process.stdout.write(`${bin.dir}\n`);
    },
    (err: unknown) => {
      process.stderr.write(`[temporal-server] ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
