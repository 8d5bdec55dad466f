// Blobs encrypted with the payload keys (docs/encryption.md): what history carries by reference
// (transcripts, tool results, task outputs, settings, memory) is as secret as what it carries
// inline. A blob is written as `durable-agent:encrypted:v1:<key id>:<base64 sealed bytes>`, sealed
// with the current key and bound to its blob key (moved under another key, it does not open).
// Reading opens it with the key it names; a blob without the header is an old, plain one and is
// returned as it is.
import { open, seal } from '../encryption/aead';
import type { KeyRing } from '../encryption/keys';
import type { BlobStore } from './messageStore';

const HEADER = 'durable-agent:encrypted:v1:';

export class EncryptedBlobStore implements BlobStore {
  constructor(
    readonly inner: BlobStore,
    readonly ring: KeyRing,
  ) {}

  async put(key: string, data: string): Promise<void> {
    const { keyId, bytes } = seal(this.ring, Buffer.from(data, 'utf8'), Buffer.from(key, 'utf8'));
    await this.inner.put(key, `${HEADER}${keyId}:${bytes.toString('base64')}`);
  }

  async get(key: string): Promise<string | undefined> {
    const stored = await this.inner.get(key);
    if (stored === undefined || !stored.startsWith(HEADER)) return stored;
    return decryptBlob(this.ring, key, stored).toString('utf8');
  }

  toString(): string {
    return `${String(this.inner)}, encrypted (key ${this.ring.current.id})`;
  }

  /** Closes the store under it, if it has anything to close (a PostgreSQL pool). */
  async close(): Promise<void> {
    await (this.inner as { close?: () => Promise<void> }).close?.();
  }
}

/** Whether a stored value is an encrypted blob (tests, and readers without keys). */
export const isEncryptedBlob = (stored: string): boolean => stored.startsWith(HEADER);

function decryptBlob(ring: KeyRing | undefined, key: string, stored: string): Buffer {
  const rest = stored.slice(HEADER.length);
  const colon = rest.indexOf(':');
  const keyId = colon < 0 ? '(none named)' : rest.slice(0, colon);
  return open(ring, keyId, Buffer.from(rest.slice(colon + 1), 'base64'), `blob ${key}`, Buffer.from(key, 'utf8'));
}

/** The store under any encryption wrapper (where a blob's file lives, what kind of store it is). */
export function baseBlobStore(store: BlobStore): BlobStore {
  return store instanceof EncryptedBlobStore ? baseBlobStore(store.inner) : store;
}
