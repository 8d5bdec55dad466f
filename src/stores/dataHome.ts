// The user's data directory: durable-agent's user settings, the local store and the embedded dev
// server's database live here, outside every working directory (and out of sandboxed Bash's reach).
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** `$DURABLE_AGENT_HOME`, else `~/.durable-agent`. */
export function durableAgentHome(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return resolve(env.DURABLE_AGENT_HOME ?? join(homedir(), '.durable-agent'));
}

/**
 * Where transcripts, the execution ledger and large results live: shared by every command on a
 * machine (`$DURABLE_AGENT_STORE_DIR`, else `<data home>/store`). Here, not beside the worker's
 * dependencies, so that the CLI reads a store without loading the runtime (issue 32).
 */
export function defaultStoreDir(): string {
  return resolve(process.env.DURABLE_AGENT_STORE_DIR ?? join(durableAgentHome(), 'store'));
}

/** The dev server's SQLite file: `$DURABLE_AGENT_DEV_DB`, else `<data home>/temporal.db`. */
export function defaultDevDb(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return resolve(env.DURABLE_AGENT_DEV_DB ?? join(durableAgentHome(env), 'temporal.db'));
}

/**
 * Where the in-process runner keeps the temporary stores of sessions given none
 * (src/inprocess/store.ts): one directory per session inside this root. Every session's sandbox and
 * file tools refuse the whole root (runtime/callDeps.ts workerPrivatePaths), so that two sessions
 * of one process (or of two) never read each other's transcripts and results (red team, issue 30, K7).
 */
export function localStoresRoot(): string {
  return join(tmpdir(), 'durable-agent-local');
}
