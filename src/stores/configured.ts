// The blob store that workers and commands are configured with, built in one place so that the
// `transcript` command reads the same store the workers write (never a hard-coded file layout).
//   explicit `blobStore` (library users)
//   > `store` (the CLI's --store) > DURABLE_AGENT_STORE (a URL: postgres://… shared by every host; file:… or a path)
//   > DURABLE_AGENT_BLOB_STORE (a module)
//   > files under the store dir (one host only)
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configuredKeyRing, type EncryptionSetting } from '../encryption/keys';
import { LocalBlobStore, type BlobStore } from './messageStore';
import { PostgresBlobStore, redact } from './postgresBlobStore';
import { baseBlobStore, EncryptedBlobStore } from './encryptedBlobStore';

export interface BlobStoreConfig {
  storeDir: string;
  blobStore?: BlobStore;
  store?: string;
  /** The keys blobs are encrypted with (docs/encryption.md); absent: DURABLE_AGENT_ENCRYPTION_KEY_FILE. */
  encryption?: EncryptionSetting;
}

/** The store `opts` names, encrypted when keys are configured (an already encrypted store is kept). */
export function configuredBlobStore(opts: BlobStoreConfig): BlobStore {
  const store = plainBlobStore(opts);
  if (store instanceof EncryptedBlobStore) return store;
  const ring = configuredKeyRing(opts.encryption);
  return ring ? new EncryptedBlobStore(store, ring) : store;
}

function plainBlobStore(opts: BlobStoreConfig): BlobStore {
  if (opts.blobStore) return opts.blobStore;
  const url = opts.store ?? process.env.DURABLE_AGENT_STORE;
  if (url) return blobStoreFromUrl(url, opts.storeDir);
  const modulePath = process.env.DURABLE_AGENT_BLOB_STORE;
  if (modulePath) {
    // A module exporting `createBlobStore({ storeDir })` (an object store, a shared database…).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(resolve(modulePath)) as { createBlobStore?: (o: { storeDir: string }) => BlobStore };
    if (typeof mod.createBlobStore !== 'function') {
      throw new Error(
        `DURABLE_AGENT_BLOB_STORE=${modulePath} must export a function createBlobStore({ storeDir }) returning { put(key, data), get(key) }`,
      );
    }
    return mod.createBlobStore({ storeDir: opts.storeDir });
  }
  return new LocalBlobStore(join(opts.storeDir, 'blobs'));
}

/**
 * `postgres://…` / `postgresql://…` → the shared PostgreSQL store (`?table=name` picks the table);
 * `file:///dir` or an absolute path → files in that directory (one host). Anything else is refused.
 */
export function blobStoreFromUrl(url: string, storeDir: string): BlobStore {
  const trimmed = url.trim();
  if (/^postgres(ql)?:\/\//i.test(trimmed)) {
    let table: string | undefined;
    let connectionString = trimmed;
    try {
      const u = new URL(trimmed);
      table = u.searchParams.get('table') ?? undefined;
      if (table !== undefined) {
        u.searchParams.delete('table');
        connectionString = u.toString();
      }
    } catch {
      throw new Error(
        `DURABLE_AGENT_STORE: not a valid PostgreSQL URL: ${redact(trimmed)} (expected postgres://user:password@host:5432/database)`,
      );
    }
    return new PostgresBlobStore({ connectionString, ...(table ? { table } : {}) });
  }
  if (/^file:/i.test(trimmed)) return new LocalBlobStore(fileURLToPath(trimmed));
  if (trimmed.startsWith('/')) return new LocalBlobStore(trimmed);
  if (trimmed === 'local' || trimmed === 'files') return new LocalBlobStore(join(storeDir, 'blobs'));
  throw new Error(
    `DURABLE_AGENT_STORE=${redact(trimmed)}: unknown store; use postgres://user:password@host:5432/database (shared by workers on several hosts), file:///dir or an absolute directory (one host), or leave it unset for files under the store dir`,
  );
}

/** One line saying where a store keeps its blobs (worker start-up, error messages). */
export function describeBlobStore(store: BlobStore): string {
  if (store instanceof EncryptedBlobStore)
    return `${describeBlobStore(baseBlobStore(store))}, encrypted (current key ${store.ring.current.id})`;
  if (store instanceof LocalBlobStore) return `files under ${store.dir} (this host only)`;
  if (store instanceof PostgresBlobStore) return `${store.toString()} (shared)`;
  return store.constructor?.name ?? 'a custom blob store';
}
