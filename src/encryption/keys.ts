// The keys that encrypt payloads and stored blobs (AES-256-GCM): read from the files named by
// DURABLE_AGENT_ENCRYPTION_KEY_FILE (several joined by the path delimiter) or given by the caller,
// never from workflow history. A file holds one key a line, base64 of 32 bytes (`openssl rand
// -base64 32`); blank lines and `#` comments are skipped. The first key of the first file is the
// current one: it encrypts everything new. Every key decrypts what it encrypted, so rotating is
// putting a new line first and keeping the old ones until nothing needs them (docs/encryption.md).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { delimiter } from 'node:path';
import { DurableAgentError } from '../core/errors';

export const KEY_FILE_ENV = 'DURABLE_AGENT_ENCRYPTION_KEY_FILE';
const KEY_BYTES = 32;

export interface EncryptionKey {
  /** `k-` and 16 hex digits of the key's SHA-256: names the key in payload metadata, never reveals it. */
  id: string;
  key: Buffer;
}

/** Bad key material or an unreadable key file: one line saying which file, which line, what is wrong. */
export class EncryptionKeyError extends DurableAgentError {
  constructor(message: string) {
    super('ENCRYPTION_KEY', message);
  }
}

export const keyIdOf = (key: Buffer): string => `k-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;

/** The keys a process encrypts with (the first) and decrypts with (any, by id). */
export class KeyRing {
  readonly keys: readonly EncryptionKey[];

  constructor(
    keys: readonly EncryptionKey[],
    /** Where the keys came from, for messages (a file list, "keys given by the caller"). */
    readonly source: string,
  ) {
    const seen = new Set<string>();
    this.keys = keys.filter((k) => !seen.has(k.id) && seen.add(k.id));
    if (this.keys.length === 0) throw new EncryptionKeyError(`${source}: no key (one base64 line of 32 bytes a key)`);
  }

  get current(): EncryptionKey {
    return this.keys[0]!;
  }

  byId(id: string): EncryptionKey | undefined {
    return this.keys.find((k) => k.id === id);
  }

  /** "k-…, k-…": the ids this ring holds, current first. */
  describe(): string {
    return this.keys.map((k) => k.id).join(', ');
  }
}

/** One key from its base64 text; `where` names it in the error. */
export function parseKey(text: string, where: string): EncryptionKey {
  const b64 = text.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0)
    throw new EncryptionKeyError(`${where}: not base64 (make a key with: openssl rand -base64 32)`);
  const key = Buffer.from(b64, 'base64');
  if (key.length !== KEY_BYTES)
    throw new EncryptionKeyError(
      `${where}: ${key.length} bytes, an AES-256 key is ${KEY_BYTES} (make one with: openssl rand -base64 32)`,
    );
  return { id: keyIdOf(key), key };
}

/** The keys of one file's text, in order. */
export function parseKeyFile(text: string, file: string): EncryptionKey[] {
  const keys: EncryptionKey[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) return;
    keys.push(parseKey(t, `${file} line ${i + 1}`));
  });
  if (keys.length === 0) throw new EncryptionKeyError(`${file}: no key (one base64 line of 32 bytes a key)`);
  return keys;
}

/** The ring of the files in `spec` (paths joined by the path delimiter), in order. */
export function keyRingFromFiles(spec: string): KeyRing {
  const files = spec.split(delimiter).filter((f) => f.trim() !== '');
  if (files.length === 0) throw new EncryptionKeyError(`${KEY_FILE_ENV} is set but names no file`);
  const keys = files.flatMap((file) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new EncryptionKeyError(
        `${KEY_FILE_ENV}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
    return parseKeyFile(text, file);
  });
  return new KeyRing(keys, `${KEY_FILE_ENV}=${spec}`);
}

/**
 * How a caller configures encryption: a ring, key files, base64 keys (current first), or `false`
 * for none whatever the environment says. Absent: the environment decides.
 */
export type EncryptionSetting = KeyRing | { keyFile: string } | { keys: string[] } | false;

/** The ring `setting` (else DURABLE_AGENT_ENCRYPTION_KEY_FILE) configures; undefined: encryption is off. */
export function configuredKeyRing(
  setting?: EncryptionSetting,
  env: NodeJS.ProcessEnv = process.env,
): KeyRing | undefined {
  if (setting === false) return undefined;
  if (setting instanceof KeyRing) return setting;
  if (setting && 'keyFile' in setting) return keyRingFromFiles(setting.keyFile);
  if (setting && 'keys' in setting)
    return new KeyRing(
      setting.keys.map((k, i) => parseKey(k, `encryption key ${i + 1} given by the caller`)),
      'the keys given by the caller',
    );
  const spec = env[KEY_FILE_ENV];
  return spec ? keyRingFromFiles(spec) : undefined;
}
