// Bringing a command's objects in: re-hashed and checked as a fetch would (`git index-pack
// --fsck-objects`), so a forged or hostile object never lands under a name it does not hash to.
import { createWriteStream, promises as fs } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { entriesOf, openDirNoFollow, openRegularNoFollow } from './files';
import { gitReason, runGit } from './git';
import type { State, WorktreeGit } from './layout';

export async function objectsPresent(commonDir: string, hashes: string[]): Promise<Map<string, string>> {
  if (hashes.length === 0) return new Map();
  const out = await runGit([`--git-dir=${commonDir}`, 'cat-file', '--batch-check=%(objectname) %(objecttype)'], {
    input: hashes.map((h) => `${h}\n`).join(''),
  });
  const types = new Map<string, string>();
  for (const l of out.stdout.split('\n')) {
    const [h, t] = l.split(' ');
    if (h && t && t !== 'missing') types.set(h, t);
  }
  return types;
}

/**
 * The shadow's objects into the repository: loose ones copied (never through a symlink) to a
 * directory of the worker's and packed there, packs streamed; `git index-pack --fsck-objects`
 * names each object by its content and refuses what a fetch with fsck would. What came in is then
 * removed from the shadow (the command's git still reads it through the alternate).
 */
export async function importObjects(w: WorktreeGit, shadow: string, state: State): Promise<string | undefined> {
  const top = await openDirNoFollow(path.join(shadow, 'objects'));
  if (!top) return undefined;
  // Every directory stays open until the end: what is read, and later removed, is reached through
  // it (a command swapping `objects/xx` or `objects/pack` for a symlink meanwhile changes nothing).
  const held: Array<{ close: () => Promise<void> }> = [top];
  const loose: Array<{ name: string; at: string }> = [];
  const packs: Array<{ name: string; at: string }> = [];
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'da-wtgit-'));
  try {
    for (const e of await entriesOf(top.at)) {
      if (!e.isDirectory()) continue;
      const isLoose = /^[0-9a-f]{2}$/.test(e.name);
      if (!isLoose && e.name !== 'pack') continue;
      const d = await openDirNoFollow(path.join(top.at, e.name));
      if (!d) continue;
      held.push(d);
      for (const f of await entriesOf(d.at)) {
        if (!f.isFile()) continue;
        const at = path.join(d.at, f.name);
        if (!isLoose) {
          if (/^pack-[0-9a-f]+\.pack$/.test(f.name)) packs.push({ name: f.name, at });
          continue;
        }
        if (!/^[0-9a-f]{38}(?:[0-9a-f]{24})?$/.test(f.name)) continue;
        const fh = await openRegularNoFollow(at);
        if (!fh) continue;
        await fs.mkdir(path.join(tmp, e.name), { recursive: true });
        // Streamed (an object may be large), from the descriptor just checked.
        await pipeline(fh.createReadStream(), createWriteStream(path.join(tmp, e.name, f.name)));
        loose.push({ name: e.name + f.name, at });
      }
    }
    const refused = new Set(state.refused ?? []);
    const problems: string[] = [];
    const imported: string[] = [];
    // Loose objects: as one pack; when the repository refuses it, one by one (a refused object
    // then stays in the shadow, named in the state, and is never offered again).
    const fresh = loose.filter((l) => !refused.has(l.name));
    if (fresh.length > 0) {
      const whole = await packAndIndex(
        w.commonDir,
        tmp,
        fresh.map((l) => l.name),
      );
      if (!whole) imported.push(...fresh.map((l) => l.at));
      else
        for (const l of fresh) {
          const why = await packAndIndex(w.commonDir, tmp, [l.name]);
          if (!why) imported.push(l.at);
          else {
            refused.add(l.name);
            problems.push(`${l.name.slice(0, 12)}: ${why}`);
          }
        }
    }
    for (const p of packs) {
      if (refused.has(p.name)) continue;
      const fh = await openRegularNoFollow(p.at);
      if (!fh) continue;
      try {
        const r = await runGit([`--git-dir=${w.commonDir}`, 'index-pack', '--stdin', '--fsck-objects'], {
          stdinFd: fh.fd,
        });
        if (r.code === 0) imported.push(p.at);
        else {
          refused.add(p.name);
          problems.push(`${p.name}: ${gitReason(r.stderr)}`);
        }
      } finally {
        await fh.close();
      }
    }
    if (refused.size > (state.refused?.length ?? 0)) state.refused = [...refused].slice(-10_000);
    // In the repository now: the shadow's copies go (a forged one included: its name was never taken).
    for (const at of imported) {
      if (!at.endsWith('.pack')) await fs.rm(at, { force: true });
      else
        for (const ext of ['.pack', '.idx', '.rev', '.keep', '.bitmap', '.promisor'])
          await fs.rm(at.replace(/\.pack$/, ext), { force: true });
    }
    return problems.length > 0 ? `refused by the repository: ${problems.slice(0, 5).join('; ')}` : undefined;
  } finally {
    for (const h of held) await h.close();
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/**
 * Packs the named loose objects (copied to `objects`, a directory of the worker's) and gives the
 * pack to the repository through `git index-pack --fsck-objects`; git's reason when it refuses.
 */
async function packAndIndex(commonDir: string, objects: string, names: string[]): Promise<string | undefined> {
  const pack = path.join(objects, `import-${randomBytes(4).toString('hex')}.pack`);
  const out = await fs.open(pack, 'w');
  try {
    const r = await runGit([`--git-dir=${commonDir}`, 'pack-objects', '--stdout'], {
      env: { GIT_OBJECT_DIRECTORY: objects },
      input: names.map((n) => `${n}\n`).join(''),
      stdoutFd: out.fd,
    });
    if (r.code !== 0) return `unreadable: ${gitReason(r.stderr)}`;
  } finally {
    await out.close();
  }
  const fh = await fs.open(pack, 'r');
  try {
    const r = await runGit([`--git-dir=${commonDir}`, 'index-pack', '--stdin', '--fsck-objects'], { stdinFd: fh.fd });
    return r.code === 0 ? undefined : gitReason(r.stderr);
  } finally {
    await fh.close();
    await fs.rm(pack, { force: true });
  }
}
