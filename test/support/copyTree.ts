// A directory tree copied the plain way: directories, regular files (their mode kept: copyFile
// keeps it) and symlinks as they are (their target text, not what it points to), synchronously.
// The tests copy a fixture per row (a project template with two git repositories, a bait HOME):
// node's fs.promises.cp took ~70 ms of CPU per copy of a 100-entry project (a stat, an opendir, a
// chmod and a few promises per entry), this ~5 ms (issue 32: the suite's CPU). Anything else (a
// FIFO, a socket, a device) is an error: a fixture holds none.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Copies `src` (a directory, a file or a symlink) to `dest`, which must not exist; `dest`'s parents are made. */
export function copyTree(src: string, dest: string): void {
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const st = fs.lstatSync(src);
  if (st.isDirectory()) copyDir(src, dest, st.mode & 0o7777);
  else copyEntry(src, dest, st);
}

function copyEntry(from: string, to: string, kind: fs.Dirent | fs.Stats): void {
  if (kind.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(from), to);
  else if (kind.isDirectory()) copyDir(from, to, fs.lstatSync(from).mode & 0o7777);
  else if (kind.isFile()) fs.copyFileSync(from, to, fs.constants.COPYFILE_EXCL);
  else throw new Error(`copyTree: ${from} is not a file, a directory or a symlink`);
}

function copyDir(src: string, dest: string, mode: number): void {
  fs.mkdirSync(dest);
  for (const e of fs.readdirSync(src, { withFileTypes: true }))
    copyEntry(path.join(src, e.name), path.join(dest, e.name), e);
  // mkdir's mode passes through the umask; the source's is kept (a 0700 .ssh stays 0700).
  fs.chmodSync(dest, mode);
}
