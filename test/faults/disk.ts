// Disk faults. The suite runs as root in CI, where permissions (chmod) do not stop a write, so the
// store is made unwritable in ways that hold for root too:
//   - a tmpfs mounted on the store directory (when `mount` is permitted): "disk full" fills it
//     with a filler file until ENOSPC, "read-only" remounts it `ro` (EROFS) — the real errors;
//   - otherwise (no mount permission): the blob directory is replaced by a regular file for a
//     while, so every write and read under it fails with ENOTDIR, as an unmounted volume would.
// Then: no record is lost or half-written (every blob parses; the ledger of each call agrees with
// its transcript), the calls waited or failed clearly, and the sessions resumed.
import { spawnSync } from 'node:child_process';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sessionStatus } from '../../src/temporal/client';
import type { ScenarioResult, SuiteContext } from './scenarios';
import { checkSessions, sleep, startApprover, waitForSessions, within, type StartedSession } from './sessions';

export interface StoreMount {
  dir: string;
  kind: 'tmpfs' | 'directory';
  description: string;
  release(): Promise<void>;
}

const TMPFS_SIZE_MB = 256;

export async function prepareStore(dir: string, wantTmpfs: boolean): Promise<StoreMount> {
  await mkdir(dir, { recursive: true });
  const plain: StoreMount = {
    dir,
    kind: 'directory',
    description: `${dir} (a plain directory; disk faults replace blobs/ by a file: ENOTDIR)`,
    release: async () => undefined,
  };
  // DURABLE_AGENT_FAULTS_DISK=swap: the fallback even where mount works (to test it).
  if (!wantTmpfs || process.platform !== 'linux' || process.env.DURABLE_AGENT_FAULTS_DISK === 'swap') return plain;
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE_MB}m`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) {
    plain.description += ` — mount not permitted here: ${(r.stderr || r.error?.message || '').trim().split('\n')[0]}`;
    return plain;
  }
  return {
    dir,
    kind: 'tmpfs',
    description: `${dir} on a ${TMPFS_SIZE_MB} MB tmpfs (disk full = ENOSPC, read-only remount = EROFS)`,
    release: async () => {
      spawnSync('umount', ['-l', dir]);
    },
  };
}

/** Fills the filesystem of `dir` until ENOSPC; returns the filler's path. */
async function fill(dir: string): Promise<string> {
  const path = join(dir, 'filler.bin');
  const fh = await open(path, 'w');
  const chunk = Buffer.alloc(1024 * 1024, 7);
  try {
    for (;;) await fh.write(chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    await fh.close().catch(() => undefined);
  }
  // Smaller pieces too, so that not even a small blob fits.
  const small = await open(path, 'a');
  try {
    for (;;) await small.write(Buffer.alloc(512, 7));
  } catch {
    // full
  } finally {
    await small.close().catch(() => undefined);
  }
  return path;
}

function remount(dir: string, mode: 'ro' | 'rw'): void {
  const r = spawnSync('mount', ['-o', `remount,${mode}`, dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mount -o remount,${mode} ${dir}: ${r.stderr.trim()}`);
}

interface Fault {
  name: string;
  on(): Promise<void>;
  off(): Promise<void>;
}

function faultsFor(store: StoreMount): Fault[] {
  if (store.kind === 'tmpfs') {
    let filler = '';
    return [
      {
        name: 'disk full (ENOSPC)',
        on: async () => void (filler = await fill(store.dir)),
        off: () => rm(filler, { force: true }),
      },
      {
        name: 'read-only remount (EROFS)',
        on: async () => remount(store.dir, 'ro'),
        off: async () => remount(store.dir, 'rw'),
      },
    ];
  }
  const blobs = join(store.dir, 'blobs');
  const away = join(store.dir, 'blobs.away');
  return [
    {
      name: 'store directory gone (ENOTDIR)',
      on: async () => {
        await rename(blobs, away);
        await writeFile(blobs, 'not a directory\n');
      },
      off: async () => {
        await rm(blobs, { force: true });
        await rename(away, blobs);
      },
    },
  ];
}

/** Every blob under the store parses as JSON (written whole or not at all); temp files left over are counted. */
export async function auditStore(dir: string): Promise<{ records: number; torn: string[]; leftoverTemps: number }> {
  const out = { records: 0, torn: [] as string[], leftoverTemps: 0 };
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.name.endsWith('.tmp')) out.leftoverTemps++;
      else if (d !== dir) {
        out.records++;
        try {
          JSON.parse(await readFile(p, 'utf8'));
        } catch {
          out.torn.push(`${p} (${(await stat(p)).size} bytes)`);
        }
      }
    }
  };
  await walk(join(dir, 'blobs'));
  return out;
}

export async function runDiskFaults(
  ctx: SuiteContext,
  startCrashSessions: (
    prefix: string,
    n: number,
    finished: () => boolean,
    minTurns: number,
  ) => Promise<StartedSession[]>,
): Promise<ScenarioResult> {
  let faultsDone = false;
  const sessions = await startCrashSessions('disk', ctx.sizes.diskSessions, () => faultsDone, 4);
  ctx.log(`disk faults: ${sessions.length} sessions started; store ${ctx.store.description}`);
  const approver = startApprover(ctx.cluster.client, () => sessions);
  const waiting = waitForSessions(ctx.cluster.client, sessions, 20 * 60_000);
  const notes: string[] = [];
  const outagesSeen = new Set<string>();
  const holdMs = ctx.sizes.diskHoldMs;
  for (const fault of faultsFor(ctx.store)) {
    await sleep(3_000 + Math.random() * 2_000);
    await fault.on();
    ctx.log(`disk fault on: ${fault.name} for ${holdMs / 1000} s`);
    const until = Date.now() + holdMs;
    while (Date.now() < until) {
      for (const s of sessions) {
        const st = await within(sessionStatus(ctx.cluster.client, s.id), 2_000, undefined);
        if (st?.outage)
          outagesSeen.add(`${s.name}: ${st.outage.what} ${st.outage.kind} — ${st.outage.lastError.slice(0, 120)}`);
      }
      await sleep(500);
    }
    await fault.off();
    ctx.log(`disk fault off: ${fault.name}`);
    notes.push(`fault injected: ${fault.name}, ${holdMs / 1000} s`);
  }
  faultsDone = true;
  await waiting;
  await approver.stop();
  await checkSessions(
    ctx.store.dir,
    sessions,
    /ENOSPC|EROFS|ENOTDIR|no space left|read-only file system|not a directory/i,
  );
  const audit = await auditStore(ctx.store.dir);
  notes.push(
    `sessions that showed a store outage while waiting: ${new Set([...outagesSeen].map((o) => o.split(':')[0])).size} (e.g. ${[...outagesSeen][0] ?? 'none'})`,
  );
  notes.push(
    `store records checked: ${audit.records}, half-written: ${audit.torn.length}, temp files left over: ${audit.leftoverTemps}`,
  );
  const failedClearly = sessions.reduce((n, s) => n + (s.check?.failedClearly ?? 0), 0);
  notes.push(`calls that failed clearly (store error named, no effect): ${failedClearly}`);
  return {
    name: 'disk',
    title: `Disk faults (${ctx.store.kind === 'tmpfs' ? 'tmpfs: full, read-only' : 'blobs/ replaced by a file'})`,
    sessions,
    approvals: approver.approvals(),
    notes,
    violations: audit.torn.map((t) => `half-written record: ${t}`),
  };
}
