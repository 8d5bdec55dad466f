// The shadow's lock and its leases: one lease per command running in the worktree; the shadow
// stays while any is alive.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ownerAlive, ownerId } from '../../sandbox/reaper';
import { entriesOf, readRegular } from './files';
import { LEASES, LOCK } from './layout';

// --- the lock and the leases ---------------------------------------------------------------------------

export const HOST = os.hostname();

/** A holder written as `host owner` (reaper.ts ownerId: pid and start time): alive unless it is on this host and gone. */
function holderAlive(text: string | undefined, mtimeMs: number): boolean {
  const [host, owner] = (text ?? '').trim().split(' ');
  if (host === HOST && owner && /^\d+(\.\d+)?$/.test(owner)) return ownerAlive(owner);
  // Another host (a shared file system) or unreadable: alive for a day.
  return Date.now() - mtimeMs < 24 * 3600_000;
}

export async function withLock<T>(shadow: string, fn: () => Promise<T>): Promise<T> {
  const lock = path.join(shadow, LOCK);
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      await fs.writeFile(lock, `${HOST} ${ownerId()}\n`, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const st = await fs.lstat(lock).catch(() => undefined);
      if (st && !holderAlive(await readRegular(lock), st.mtimeMs)) {
        await fs.rm(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`the worktree's git lock ${lock} is held by another process`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  try {
    return await fn();
  } finally {
    await fs.rm(lock, { force: true });
  }
}

/** The leases of commands running now (a dead process's lease is dropped). */
export async function liveLeases(shadow: string): Promise<string[]> {
  const dir = path.join(shadow, LEASES);
  const live: string[] = [];
  for (const e of await entriesOf(dir)) {
    const p = path.join(dir, e.name);
    const st = await fs.lstat(p).catch(() => undefined);
    if (!st) continue;
    if (holderAlive(await readRegular(p), st.mtimeMs)) live.push(e.name);
    else await fs.rm(p, { force: true });
  }
  return live;
}
