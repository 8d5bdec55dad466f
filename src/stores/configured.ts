// The blob store that workers and commands are configured with, built in one place so that the
// `transcript` command reads the same store the workers write (never a hard-coded file layout).
//   explicit `blobStore` (library users) > DURABLE_AGENT_BLOB_STORE (a module) > files under the store dir
import { join, resolve } from 'node:path';
import { LocalBlobStore, type BlobStore } from './messageStore';

export function configuredBlobStore(opts: { storeDir: string; blobStore?: BlobStore }): BlobStore {
  if (opts.blobStore) return opts.blobStore;
  const modulePath = process.env.DURABLE_AGENT_BLOB_STORE;
  if (modulePath) {
    // A module exporting `createBlobStore({ storeDir })` (an object store, a shared database…).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(resolve(modulePath)) as { createBlobStore?: (o: { storeDir: string }) => BlobStore };
    if (typeof mod.createBlobStore !== 'function') {
      throw new Error(`DURABLE_AGENT_BLOB_STORE=${modulePath} must export a function createBlobStore({ storeDir }) returning { put(key, data), get(key) }`);
    }
    return mod.createBlobStore({ storeDir: opts.storeDir });
  }
  return new LocalBlobStore(join(opts.storeDir, 'blobs'));
}
