// A git config a sandboxed command created, reduced to the keys that run nothing (the check after the
// call and the live guard, protect.ts undoProtectedWrites): read by git itself, rewritten under git's
// own lock.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runHostProcessSync } from '../hostProcess/door';
import { GIT_GUARD_ENV } from '../hostProcess/git';
import { removeEntry } from './anchored';

/** Keys a new git config may keep: none of them runs a program or loads another file. */
const SAFE_GIT_KEYS = [
  /^core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks|autocrlf|eol|safecrlf|quotepath)$/,
  /^extensions\.(objectformat|refstorage)$/,
  /^init\.defaultbranch$/,
  /^user\.(name|email)$/,
  /^remote\.[^\n]+\.(url|fetch)$/,
  /^branch\.[^\n]+\.(remote|merge|rebase)$/,
];

function quoteGitValue(v: string): string {
  return `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
}

/**
 * The file's own bytes, never through a symlink (red team q, Q4: a new `config` linked to the
 * project's masked config, or another project's, had the worker copy the target's remote URL and
 * its token into the project): undefined when it is gone; 'notOurs' when it is a link, not a
 * regular file, or a file with another name (the command may not make the worker read elsewhere).
 */
function readOwn(file: string): Buffer | undefined | 'notOurs' {
  const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP' || code === 'ENXIO') return 'notOurs';
    throw err; // unreadable (chmod 000): given back to its owner and read again (withOwnerRetry)
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.nlink > 1) return 'notOurs';
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The config's keys as git itself reads them (`git config -f FILE --list`, which follows no
 * include) from a private copy of the bytes read, reduced to those that run nothing; text git
 * cannot read: undefined.
 */
function safeKeysOf(bytes: Buffer): ReturnType<typeof safeGitConfigText> | undefined {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'da-gitconfig-'));
  try {
    const copy = path.join(dir, 'config');
    fs.writeFileSync(copy, bytes, { mode: 0o600 });
    const r = runHostProcessSync({
      purpose: 'git',
      command: 'git',
      args: ['config', '-f', copy, '-z', '--list'],
      cwd: '/',
      env: { ...GIT_GUARD_ENV, HOME: '/nonexistent' },
    });
    return r.code === 0 ? safeGitConfigText(r.stdout) : undefined;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** What replaces `file` (its safe text), or the reason it goes whole (removed here). */
function safeOrRemoved(
  file: string,
  bytes: Buffer | 'notOurs',
): ReturnType<typeof safeGitConfigText> | { gone: string } {
  const safe = bytes === 'notOurs' ? undefined : safeKeysOf(bytes);
  if (safe) return safe;
  removeEntry(file);
  return {
    gone:
      bytes === 'notOurs'
        ? '(the whole file: a link or a special file, never read)'
        : '(the whole file: git could not read it)',
  };
}

/**
 * A new git config, reduced to the keys that run nothing (read by git itself: `git config -f
 * FILE --list`, which follows no include). Returns the keys removed; the file is removed whole
 * when git cannot read it (or is not installed). The new text replaces the file under git's own
 * lock (`config.lock`, taken as git takes it, for the moment of the write only), and only if the
 * file is still what was read: a `git config` running meanwhile in the sandbox loses no key it
 * wrote. When the lock is taken or the file changed meanwhile: undefined (try again), unless
 * `force` (after the command: a lock left behind must not keep a key that runs a program).
 */
export function sanitizeGitConfig(file: string, force: boolean): string[] | undefined {
  const read = readOwn(file);
  if (read === undefined) return [];
  const safe = safeOrRemoved(file, read);
  if ('gone' in safe) return [safe.gone];
  const { text, removed } = safe;
  if (removed.length === 0) return [];
  // Gone while git read it (the command removes its directory: an mv across mounts, an rm -r): nothing to
  // rewrite, and no lock made in a directory being removed, whose last rmdir then failed "Directory not
  // empty" (the row red-issue30-depth "bypass (bare repository)" under load; session 29).
  if (!fs.lstatSync(file, { throwIfNoEntry: false })) return [];
  const lock = `${path.resolve(file)}.lock`;
  let fd: number;
  try {
    const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
    fd = fs.openSync(lock, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644);
  } catch {
    if (!force) return undefined;
    return replaceWithoutLock(file, text, removed);
  }
  let renamed = false;
  try {
    const now = readOwn(file);
    const same = Buffer.isBuffer(now) && Buffer.isBuffer(read) && now.equals(read);
    if (!same && !force) return undefined;
    if (!same) return sanitizeAgain(file, now, fd, lock, () => (renamed = true));
    fs.writeSync(fd, text);
    fs.closeSync(fd);
    fd = -1;
    fs.renameSync(lock, file);
    renamed = true;
    return removed;
  } finally {
    if (fd >= 0) fs.closeSync(fd);
    if (!renamed) removeEntry(lock);
  }
}

/**
 * After the command, with a lock left behind: the safe text through a fresh name beside the file
 * (random: a command cannot have put something in its way); when even that fails, the file goes
 * whole — a key that runs a program is never kept because a write failed.
 */
function replaceWithoutLock(file: string, text: string, removed: string[]): string[] {
  const tmp = `${file}.durable-agent-${randomBytes(12).toString('hex')}`;
  try {
    fs.writeFileSync(tmp, text, { mode: 0o644, flag: 'wx' });
    fs.renameSync(tmp, file);
    return removed;
  } catch {
    removeEntry(tmp);
    removeEntry(file);
    return ['(the whole file: it could not be rewritten)'];
  }
}

/** After the command, the file changed between the read and the lock: read again under the lock. */
function sanitizeAgain(
  file: string,
  now: Buffer | undefined | 'notOurs',
  fd: number,
  lock: string,
  renamed: () => void,
): string[] {
  if (now === undefined) return [];
  const safe = safeOrRemoved(file, now);
  if ('gone' in safe) return [safe.gone];
  const { text, removed } = safe;
  if (removed.length === 0) return [];
  fs.writeSync(fd, text);
  fs.renameSync(lock, file);
  renamed();
  return removed;
}

/** `git config --list -z` output reduced to the keys that run nothing: the config text, and the keys removed. */
function safeGitConfigText(list: string): { text: string; removed: string[] } {
  const kept: Array<[string, string]> = [];
  const removed: string[] = [];
  for (const item of list.split('\0')) {
    if (item === '') continue;
    const nl = item.indexOf('\n');
    const key = nl < 0 ? item : item.slice(0, nl);
    const value = nl < 0 ? 'true' : item.slice(nl + 1);
    if (SAFE_GIT_KEYS.some((re) => re.test(key.toLowerCase()))) kept.push([key, value]);
    else removed.push(key);
  }
  // section[.subsection].name: the subsection is everything between the first and the last dot.
  const sections = new Map<string, string[]>();
  for (const [key, value] of kept) {
    const first = key.indexOf('.');
    const last = key.lastIndexOf('.');
    const head =
      first === last
        ? `[${key.slice(0, first)}]`
        : `[${key.slice(0, first)} ${quoteGitValue(key.slice(first + 1, last))}]`;
    const lines = sections.get(head) ?? [];
    lines.push(`\t${key.slice(last + 1)} = ${quoteGitValue(value)}`);
    sections.set(head, lines);
  }
  return { text: [...sections].map(([h, lines]) => `${h}\n${lines.join('\n')}\n`).join(''), removed };
}
