// Large tool results (invariant 7) when workers share a store across hosts: the whole output is
// written as a local file the model can Read (as on one host) AND kept in the shared store, keyed
// by session and file name. The Read may run on another host: there the file is missing, and Read
// (after its permission decision, src/tools/read.ts) asks `materialize` to recreate it from the
// shared store — only at this worker's own path of that result (`<storeDir>/results/<session>/<file>`,
// the path the worker gives the model; every worker has the same store dir, docs/deployment.md),
// never at a path the agent chose: the real directory the path names must be this session's results
// directory, and the file is written through the worker's own path to it, never through the agent's
// (issue 30 round f: a tool_use naming `<anywhere>/results/<session>/<file>` made the worker create it).
import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ResultStore } from '../toolProtocol/Tool';
import { LocalResultStore, resultFileName } from '../toolProtocol/resultStore';
import { hashOf, type BlobStore } from './messageStore';

/** A result file name resultFileName can give (`<id>.txt`, `<safe>-<hash>.txt`): nothing else is looked up. */
const RESULT_FILE = /^[A-Za-z0-9_-]{1,117}\.txt$/;

export class SharedResultStore implements ResultStore {
  readonly dir: string;
  /** As LocalResultStore's. */
  readonly resultsRoot?: string;
  /** As LocalResultStore's: never read. */
  formerDir?: string;
  private readonly local: LocalResultStore;

  constructor(
    dir: string,
    private readonly blobs: BlobStore,
    private readonly sessionId: string,
    /** Kept for callers of the 0.2 signature; the directory is `dir`. */
    _sessionDir?: string,
    resultsRoot?: string,
  ) {
    this.local = new LocalResultStore(dir, resultsRoot);
    this.dir = this.local.dir;
    if (this.local.resultsRoot !== undefined) this.resultsRoot = this.local.resultsRoot;
  }

  private key(fileName: string): string {
    return `result-${hashOf(`${this.sessionId}\u0000${fileName}`)}`;
  }

  async put(toolUseId: string, content: string): Promise<string> {
    await this.blobs.put(this.key(resultFileName(toolUseId)), content);
    return this.local.put(toolUseId, content);
  }

  /**
   * This worker's own path of the result `path` names, when its parent is, really (symlinks
   * resolved), this session's results directory. Undefined otherwise. A missing results directory
   * is this session's only under its own name (nothing else can lead into it).
   */
  private async ownFile(path: string): Promise<string | undefined> {
    const abs = resolve(path);
    const file = basename(abs);
    if (!RESULT_FILE.test(file)) return undefined;
    const parent = dirname(abs);
    let own: string;
    try {
      own = await realpath(this.dir);
    } catch {
      return parent === this.dir ? join(this.dir, file) : undefined;
    }
    try {
      return (await realpath(parent)) === own ? join(this.dir, file) : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Is `path` a result of this session this worker can recreate (its own path of it, missing here,
   * kept in the shared store)? Writes nothing: Read's validateInput asks before the permission decision.
   */
  async stored(path: string): Promise<boolean> {
    const target = await this.ownFile(path);
    if (target === undefined) return false;
    if (await exists(target)) return false;
    return (await this.blobs.get(this.key(basename(target)))) !== undefined;
  }

  /**
   * Recreates this session's result at `path` from the shared store when `path` is this worker's own
   * path of it and it is missing here; true when it did. Anything else (a path elsewhere, even one
   * ending in `results/<session>/<file>`; another session's results; an existing file; a result the
   * store does not have) is left alone. Called by Read after its permission decision. The file is
   * written through the worker's own path of the directory (O_CREAT|O_EXCL|O_NOFOLLOW on a fresh
   * temporary name, then renamed), so a path the agent swaps after the check leads nowhere.
   */
  async materialize(path: string): Promise<boolean> {
    const target = await this.ownFile(path);
    if (target === undefined) return false;
    if (await exists(target)) return false;
    const file = basename(target);
    const data = await this.blobs.get(this.key(file));
    if (data === undefined) return false;
    // The store's own directory (under the worker's store dir, which sandboxed commands never see).
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    const tmp = join(dirname(target), `.${file}.${process.pid}.${randomBytes(8).toString('hex')}.tmp`);
    try {
      const fh = await open(
        tmp,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o600,
      );
      try {
        await fh.writeFile(data, 'utf8');
      } finally {
        await fh.close();
      }
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => undefined);
      throw err;
    }
    return true;
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch {
    return false;
  }
}
