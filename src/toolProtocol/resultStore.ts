// Local result store for large tool results (invariant 7): `<dir>/<tool_use_id>.txt`.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ResultStore } from './Tool';

/**
 * File name for a tool_use_id. Ids made of `[A-Za-z0-9_-]` (all real Anthropic ids) map to
 * themselves; anything else is replaced and suffixed with a hash of the original id, so that two
 * different ids never share a file and nothing can escape the directory.
 */
export function resultFileName(toolUseId: string): string {
  const safe = toolUseId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100);
  if (safe === toolUseId && safe.length > 0) return `${safe}.txt`;
  const hash = createHash('sha256').update(toolUseId).digest('hex').slice(0, 16);
  return `${safe || 'id'}-${hash}.txt`;
}

export class LocalResultStore implements ResultStore {
  readonly dir: string;
  /**
   * The directory holding every session's results directory on this worker (`<store>/results`):
   * the others in it are refused to this session (withResultDirectory). Absent: `dir`'s parent
   * when it is named `results`.
   */
  readonly resultsRoot?: string;
  /**
   * The name releases before 0.3.0 gave this session's directory when it differs (a name other ids
   * shared): never read, named only so that a refused Read of it says why (runtime/callDeps.ts).
   */
  formerDir?: string;

  constructor(dir: string, resultsRoot?: string) {
    this.dir = path.resolve(dir);
    if (resultsRoot !== undefined) this.resultsRoot = path.resolve(resultsRoot);
  }

  /** Stores `content` whole; idempotent: the same id always gives the same path (rewritten atomically). */
  async put(toolUseId: string, content: string): Promise<string> {
    await fs.mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, resultFileName(toolUseId));
    try {
      if ((await fs.readFile(file, 'utf8')) === content) return file;
    } catch {
      // not there yet
    }
    const tmp = `${file}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      await fs.writeFile(tmp, content, 'utf8');
      await fs.rename(tmp, file);
    } catch (e) {
      await fs.rm(tmp, { force: true }).catch(() => undefined);
      throw e;
    }
    return file;
  }
}
