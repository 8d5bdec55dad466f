// The sandbox runtime's store of masked copies (issue 30, known limit L-c). A repository
// configuration holding a credential is read in the sandbox through a copy with the credential
// replaced (repoConfigMask.ts, O12); the runtime writes each copy into ONE store per runtime,
// `srt-credmask-*` (0700, the copies 0600), binds each copy over its real path, and binds the store
// itself, read-only, into EVERY command it wraps — and the runtimes are shared by the sessions of a
// worker (runtimePool.ts). So another session's sandbox read the first session's repository
// configuration (all but the credential spans), and, in the temp directory, every other runtime's
// store too. Now:
//  - each runtime's store is made in the sessions' root (sessionTemp.ts: 0700, read-denied whole to
//    every sandbox, only the session's own directory bound back), not in the temp directory: no
//    sandbox sees another runtime's store;
//  - the runtime's own store is covered, in each command it wraps, by an empty read-only tmpfs right
//    after the runtime binds it: the copies stay bound over their real paths (separate mounts of
//    the files), and the store itself shows nothing, to the session whose copies it holds or any other.
// A copy stays in its runtime's store (out of every sandbox's sight, 0600 in a 0700 directory of
// the worker's user) until the runtime resets or ends, when the runtime removes the store.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sessionTempRoot } from './sessionTemp';

/** The parts of the runtime's MaskedFileStore this module uses (its `dir` is a plain property). */
interface MaskedFileStore {
  readonly dirPath: string | undefined;
  dir?: string;
}

interface WithStore {
  getMaskedFileStore?: () => MaskedFileStore;
}

const STORE_PREFIX = 'srt-credmask-';

function storeOf(runtime: unknown): MaskedFileStore | undefined {
  const get = (runtime as WithStore | undefined)?.getMaskedFileStore;
  return typeof get === 'function' ? get.call(runtime) : undefined;
}

/**
 * Before a wrap in the runtime's own process: a runtime with no store yet gets one made in the
 * sessions' root (0700) rather than in the temp directory, where every sandbox could read it.
 * Returns the store's directory (undefined: none, or a runtime without a store).
 */
export function placeMaskStore(runtime: unknown): string | undefined {
  const store = storeOf(runtime);
  if (!store) return undefined;
  if (store.dirPath === undefined) {
    const root = sessionTempRoot();
    fs.mkdirSync(root, { recursive: true, mode: 0o700 });
    const st = fs.lstatSync(root);
    if (st.isDirectory() && !st.isSymbolicLink()) store.dir = fs.mkdtempSync(path.join(root, STORE_PREFIX));
  }
  return store.dirPath;
}

/** A word as the runtime's shell-quote writes it: bare when it needs no quoting, else in single quotes. */
const quoted = (w: string): string[] => [w, `'${w.replace(/'/g, `'\\''`)}'`];

/**
 * The wrapped command with the runtime's store covered: an empty read-only tmpfs over `store` right
 * after the runtime binds it (`--ro-bind S S`, the last of its mounts), or, when the mounts went to
 * a file bwrap reads (`--args <fd>`: a long profile), right after that. A command that names the
 * store otherwise throws (it does not run with the store in sight); one that does not name it has
 * no masked file (the runtime binds the store only for those).
 */
export function hideMaskStore(wrapped: string, store: string | undefined): string {
  if (store === undefined) return wrapped;
  const cover = ` --tmpfs ${quoted(store)[1]} --remount-ro ${quoted(store)[1]}`;
  // By the render's shape, never its text first (red team s, S13: in an `--args` render the bind is
  // in the file, and the first `--ro-bind S S` on the line was the command's own text): the runtime's
  // file render starts `/bin/sh -c 'exec 9<"$1" && …' srt-args <file> bwrap …`, its `--args` before
  // the command.
  const viaFile = /^'?\/bin\/sh'? -c '[^']*' '?srt-args'? /.test(wrapped);
  for (const q of viaFile ? [] : quoted(store)) {
    const bind = `--ro-bind ${q} ${q}`;
    // The first one: the mounts come before the command's own text, which may hold the same words.
    const at = wrapped.indexOf(bind);
    if (at >= 0) return wrapped.slice(0, at + bind.length) + cover + wrapped.slice(at + bind.length);
  }
  const args = viaFile ? /(?:^| )'?--args'? '?(\d+)'?(?= )/.exec(wrapped) : null;
  if (args) {
    const end = args.index + args[0].length;
    return wrapped.slice(0, end) + cover + wrapped.slice(end);
  }
  // A wrap with no masked file binds no store (the runtime's getCredentialRestrictions).
  if (!wrapped.includes(store)) return wrapped;
  throw new Error(
    `the sandbox runtime's store of masked files (${store}) could not be hidden from the command: it did not run`,
  );
}
