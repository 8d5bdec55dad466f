// AES-256-GCM with a key ring: seal with the current key, open with the key the sealed bytes name.
// Sealed bytes are nonce (12) | ciphertext | tag (16); the key id travels beside them (payload
// metadata, the blob's header). `aad` binds the bytes to where they belong (a blob's key), so they
// cannot be moved to another place and still open.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { DurableAgentError } from '../core/errors';
import type { KeyRing } from './keys';

const NONCE = 12;
const TAG = 16;

/** Encrypted data this process cannot read: its key is not configured here, or the bytes do not open. */
export class DecryptionError extends DurableAgentError {
  constructor(
    message: string,
    readonly keyId: string,
  ) {
    super('ENCRYPTION_KEY', message);
  }
}

export function seal(ring: KeyRing, plain: Uint8Array, aad?: Uint8Array): { keyId: string; bytes: Buffer } {
  const { id, key } = ring.current;
  const nonce = randomBytes(NONCE);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  if (aad) cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { keyId: id, bytes: Buffer.concat([nonce, body, cipher.getAuthTag()]) };
}

/** `what` names the data in errors ("a payload", "blob toolresult-…"). */
export function open(
  ring: KeyRing | undefined,
  keyId: string,
  bytes: Uint8Array,
  what: string,
  aad?: Uint8Array,
): Buffer {
  const k = ring?.byId(keyId);
  if (!k)
    throw new DecryptionError(
      ring
        ? `${what} is encrypted with key ${keyId}, which is not among this process's keys (${ring.describe()}, from ${ring.source}): add that key's line to the key file`
        : `${what} is encrypted with key ${keyId} and this process has no encryption key: set DURABLE_AGENT_ENCRYPTION_KEY_FILE to a file holding that key`,
      keyId,
    );
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < NONCE + TAG)
    throw new DecryptionError(`${what} (key ${keyId}) is too short to be encrypted data`, keyId);
  try {
    const decipher = createDecipheriv('aes-256-gcm', k.key, buf.subarray(0, NONCE));
    if (aad) decipher.setAAD(aad);
    decipher.setAuthTag(buf.subarray(buf.length - TAG));
    return Buffer.concat([decipher.update(buf.subarray(NONCE, buf.length - TAG)), decipher.final()]);
  } catch {
    throw new DecryptionError(
      `${what} (key ${keyId}) does not decrypt: it was altered, or is not what it claims to be`,
      keyId,
    );
  }
}
