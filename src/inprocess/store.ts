// The in-process runner's store (issue 21.8): the caller's, when it names one (`storeDir` or
// `blobStore`), else a fresh temporary directory owned by the session and removed when it ends.
// An in-process session never writes to the machine's store (`~/.durable-agent/store`, env
// DURABLE_AGENT_STORE / DURABLE_AGENT_STORE_DIR) unless the caller passes it: tests, benchmarks
// and library users get no transcripts, ledgers or results mixed into the user's. A subagent's
// child session gets its parent's resolved options, so it writes into the same store (its large
// results and transcript are found there) and never owns it.
import { lstatSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { localStoresRoot } from '../stores/dataHome';
import { LocalBlobStore } from '../stores/messageStore';
import type { AgentDepsOptions } from '../runtime/callDeps';

export interface LocalStore {
  /** The worker options with the store filled in: pass these to a child session. */
  worker: AgentDepsOptions;
  /** The store's directory (results, hook transcript files; blobs too unless the caller's blobStore holds them). */
  storeDir: string;
  /** True when the directory is this session's own temporary one. */
  temporary: boolean;
  /** Removes a temporary store (nothing for the caller's). */
  dispose(): Promise<void>;
}

export function localStore(worker: AgentDepsOptions): LocalStore {
  if (worker.storeDir !== undefined)
    return { worker, storeDir: worker.storeDir, temporary: false, dispose: async () => undefined };
  const dir = mkdtempSync(join(localStoresDir(), 's-'));
  return {
    // An explicit blob store, so that DURABLE_AGENT_STORE / DURABLE_AGENT_BLOB_STORE are not read either.
    worker: { ...worker, storeDir: dir, blobStore: worker.blobStore ?? new LocalBlobStore(join(dir, 'blobs')) },
    storeDir: dir,
    temporary: true,
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A temporary store's removal when the session could not even start. */
export function disposeNow(store: LocalStore): void {
  if (store.temporary) rmSync(store.storeDir, { recursive: true, force: true });
}

/**
 * The root of the temporary stores, 0700, ours: a directory every session's sandbox and file tools
 * refuse whole (workerPrivatePaths), so that no session reads another's store (red team, issue 30,
 * K7). A symlink or another user's directory there is refused.
 */
function localStoresDir(): string {
  const root = localStoresRoot();
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const st = lstatSync(root);
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid))
    throw new Error(`${root} is not a directory of this process's user: refusing to keep session stores there`);
  return root;
}
