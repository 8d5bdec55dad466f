// Content-addressed storage for the transcript, kept OUTSIDE workflow payloads so that a turn's
// history growth depends on that turn's new content, not on the transcript's length.
// The transcript is a chain of nodes { prev, messages }: a workflow carries only the head hash.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DurableAgentError } from '../core/errors';
import type { Message } from '../core/apiMessages';

/** Pluggable blob storage: a local directory by default; a shared volume or an object store for multi-host. */
export interface BlobStore {
  put(key: string, data: string): Promise<void>;
  get(key: string): Promise<string | undefined>;
}

/**
 * A blob the caller holds a reference to is not in this worker's store. On one host this means
 * the store lost data; with several hosts it nearly always means the workers do not share a store
 * (each has its own directory): the message says so, and how to fix it, instead of failing vaguely.
 */
export class MissingBlobError extends DurableAgentError {
  constructor(
    what: string,
    readonly key: string,
    store: BlobStore,
  ) {
    super(
      'STORE_BLOB_MISSING',
      `${what} ${key} is missing from the store (${describeStore(store)}). If another worker wrote it, that worker keeps its own store: ` +
        'workers on more than one host need one shared store (DURABLE_AGENT_STORE=postgres://…, see docs/deployment.md).',
    );
  }
}

/**
 * A content-addressed blob whose bytes do not hash to its key: changed on disk (or in the database)
 * after it was written, or torn. Its content is never used: a transcript, a tool result or a
 * read-file state someone rewrote would steer the session (red team, issue 30 round f).
 */
export class CorruptBlobError extends DurableAgentError {
  constructor(what: string, key: string, store: BlobStore) {
    super(
      'STORE_BLOB_CORRUPT',
      `${what} ${key} in the store (${describeStore(store)}) does not match its sha256: it was changed after it was written, or is corrupt. It is not used; restore the store from a backup (or end the session).`,
    );
  }
}

/**
 * The blob `key`, checked against the sha256 its key names (`hash`: its digest in either form of
 * `contentHashOf`, the key itself or its part after a prefix): undefined when absent, CorruptBlobError when it does not match.
 */
export async function getVerified(
  blobs: BlobStore,
  key: string,
  hash: string,
  what: string,
): Promise<string | undefined> {
  const data = await blobs.get(key);
  if (data !== undefined && !hashNames(data, hash)) throw new CorruptBlobError(what, key, blobs);
  return data;
}

/** A store's own description (toString), else its class name. */
function describeStore(store: BlobStore): string {
  const own = store.toString !== Object.prototype.toString ? String(store) : '';
  return (
    own ||
    (store.constructor?.name && store.constructor.name !== 'Object' ? store.constructor.name : 'a custom blob store')
  );
}

export class LocalBlobStore implements BlobStore {
  constructor(readonly dir: string) {}
  toString(): string {
    return `files under ${this.dir}, this host only`;
  }
  private path(key: string): string {
    if (!/^[A-Za-z0-9_.:-]+$/.test(key)) throw new Error(`invalid blob key: ${key}`);
    return join(this.dir, key.slice(0, 2), key);
  }
  /** Shard directories this store made or found: no mkdir before each put (issue 33: ≈ 4 % of a worker's main thread). */
  private readonly shards = new Set<string>();
  async put(key: string, data: string): Promise<void> {
    const path = this.path(key);
    const shard = join(this.dir, key.slice(0, 2));
    if (!this.shards.has(shard)) {
      await mkdir(shard, { recursive: true });
      this.shards.add(shard);
    }
    // Write-then-rename: a reader never sees half a blob, and a crash leaves no torn file.
    // The temp name is unique per put: two puts of one key in the same millisecond (concurrent
    // activities storing the same content) must not rename each other's file away.
    const tmp = `${path}.${process.pid}.${Date.now()}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, data, 'utf8').catch(async (err: unknown) => {
        // The shard went away under us (removed by hand, a pruned store): make it again, once.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        await mkdir(shard, { recursive: true });
        await writeFile(tmp, data, 'utf8');
      });
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => undefined);
      throw err;
    }
  }
  async get(key: string): Promise<string | undefined> {
    try {
      return await readFile(this.path(key), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }
}

export interface TranscriptNode {
  prev: string | null;
  messages: Message[];
}

/** The whole sha256 in hex: names derived from ids (ledger entries, shared results) and keys written before 0.3.0. */
export function hashOf(data: string): string {
  return createHash('sha256').update(data).digest('hex');
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * A content key's hash (issue 33: every per-call key rides in history several times): the first
 * 128 bits of the data's sha256 in lowercase base32, 26 characters (the whole digest in hex is
 * 64). A content key needs collision resistance, not 256 bits: finding a second blob for a key
 * someone else wrote costs 2^128, and every read still checks the content against its key
 * (`getVerified`). Lowercase, so that a case-insensitive file system keeps keys apart. Keys written
 * before (64 hex characters) are read and checked as they were.
 */
export function contentHashOf(data: string): string {
  const bytes = createHash('sha256').update(data).digest().subarray(0, 16);
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** The hash part of a content key, in either form: 26 base32 characters, or 64 hex (written before 0.3.0). */
export const CONTENT_HASH = '(?:[a-z2-7]{26}|[0-9a-f]{64})';

/** Does `hash` (a content key's hash part, in either form) name `data`? */
export function hashNames(data: string, hash: string): boolean {
  return hash.length === 64 ? hashOf(data) === hash : contentHashOf(data) === hash;
}

export class TranscriptStore {
  private cache = new Map<string, Message[]>();
  private nodes = new Map<string, Promise<TranscriptNode>>();
  constructor(
    readonly blobs: BlobStore,
    private readonly cacheLimit = 64,
  ) {}

  /**
   * The messages of the one node `key` (not the chain before it). A model call appends its
   * assistant message as a node of its own, so tool activities find their full tool_use blocks
   * here by the model call's head (workflow history carries only previews of the inputs).
   */
  async nodeMessages(key: string): Promise<Message[]> {
    return (await this.node(key)).messages;
  }

  /** The one node `key`: its messages and the head it was appended after. */
  async node(key: string): Promise<TranscriptNode> {
    let node = this.nodes.get(key);
    if (!node) {
      node = getVerified(this.blobs, key, key, 'transcript node').then((data) => {
        if (data === undefined) throw new MissingBlobError('transcript node', key, this.blobs);
        return JSON.parse(data) as TranscriptNode;
      });
      this.nodes.set(key, node);
      node.catch(() => this.nodes.delete(key));
      if (this.nodes.size > 16) {
        const oldest = this.nodes.keys().next().value;
        if (oldest !== undefined) this.nodes.delete(oldest);
      }
    }
    return node;
  }

  /** Appends messages after `head`; returns the new head. Idempotent: same input, same hash. */
  async append(head: string | null, messages: readonly Message[]): Promise<string | null> {
    if (messages.length === 0) return head;
    const data = JSON.stringify({ prev: head, messages: [...messages] } satisfies TranscriptNode);
    const key = contentHashOf(data);
    if ((await this.blobs.get(key)) === undefined) await this.blobs.put(key, data);
    return key;
  }

  /** The whole conversation up to `head`, oldest first. */
  async load(head: string | null): Promise<Message[]> {
    if (head === null) return [];
    const cached = this.cache.get(head);
    if (cached) return cached;
    const chain: TranscriptNode[] = [];
    let key: string | null = head;
    let base: Message[] = [];
    while (key !== null) {
      const hit = this.cache.get(key);
      if (hit) {
        base = hit;
        break;
      }
      const data = await getVerified(this.blobs, key, key, 'transcript node');
      if (data === undefined) throw new MissingBlobError('transcript node', key, this.blobs);
      const node = JSON.parse(data) as TranscriptNode;
      chain.push(node);
      key = node.prev;
    }
    const all = [...base];
    for (let i = chain.length - 1; i >= 0; i--) all.push(...(chain[i] as TranscriptNode).messages);
    this.remember(head, all);
    return all;
  }

  private remember(head: string, messages: Message[]): void {
    this.cache.set(head, messages);
    if (this.cache.size > this.cacheLimit) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }
}
