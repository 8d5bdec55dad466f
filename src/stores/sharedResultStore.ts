// Large tool results (invariant 7) when workers share a store across hosts: the whole output is
// written as a local file the model can Read (as on one host) AND kept in the shared store, keyed
// by session and file name. The Read may run on another host: there the file is missing, and the
// tool activity recreates it from the shared store at the path the model was given, before Read
// runs (`materialize`). Paths have the layout `<storeDir>/results/<session>/<file>` on every host.
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import type { ResultStore } from '../toolProtocol/Tool';
import { LocalResultStore, resultFileName } from '../toolProtocol/resultStore';
import { hashOf, type BlobStore } from './messageStore';

export class SharedResultStore implements ResultStore {
  readonly dir: string;
  private readonly local: LocalResultStore;

  constructor(
    dir: string,
    private readonly blobs: BlobStore,
    private readonly sessionId: string,
    private readonly sessionDir: string,
  ) {
    this.local = new LocalResultStore(dir);
    this.dir = this.local.dir;
  }

  private key(fileName: string): string {
    return `result-${hashOf(`${this.sessionId}\u0000${fileName}`)}`;
  }

  async put(toolUseId: string, content: string): Promise<string> {
    await this.blobs.put(this.key(resultFileName(toolUseId)), content);
    return this.local.put(toolUseId, content);
  }

  /**
   * A path of this session's results (`…/results/<session>/<file>`, on any host's store root) that
   * is missing here but kept in the shared store is written back; true when it did. Anything else
   * (another session's results, an existing file, a result the store does not have) is left alone.
   */
  async materialize(path: string): Promise<boolean> {
    const abs = resolve(path);
    const file = basename(abs);
    if (
      basename(dirname(abs)) !== this.sessionDir ||
      basename(dirname(dirname(abs))) !== 'results' ||
      !file.endsWith('.txt')
    )
      return false;
    try {
      await stat(abs);
      return false;
    } catch {
      // missing here: look in the shared store
    }
    const data = await this.blobs.get(this.key(file));
    if (data === undefined) return false;
    await mkdir(dirname(abs), { recursive: true });
    const tmp = `${abs}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      await writeFile(tmp, data, 'utf8');
      await rename(tmp, abs);
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => undefined);
      throw err;
    }
    return true;
  }
}

/** Paths in a tool input that may name a stored result: top-level file_path / path / notebook_path strings. */
export function inputPaths(input: unknown): string[] {
  if (typeof input !== 'object' || input === null) return [];
  const out: string[] = [];
  for (const k of ['file_path', 'path', 'notebook_path']) {
    const v = (input as Record<string, unknown>)[k];
    if (typeof v === 'string' && v.length > 0 && v.startsWith('/')) out.push(v);
  }
  return out;
}
