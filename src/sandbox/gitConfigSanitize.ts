// A git config a sandboxed command created, reduced to the keys that run nothing (the check after the
// call and the live guard, protect.ts undoProtectedWrites): read by git itself, rewritten under git's
// own lock.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
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
 * The file's keys as git itself reads them (`git config -f FILE --list`, which follows no include),
 * reduced to those that run nothing; a file git cannot read is removed whole.
 */
function readSafeGitConfig(file: string): ReturnType<typeof safeGitConfigText> | { unreadable: string } {
  const r = runHostProcessSync({
    purpose: 'git',
    command: 'git',
    args: ['config', '-f', path.resolve(file), '-z', '--list'],
    cwd: '/',
    env: { ...GIT_GUARD_ENV, HOME: '/nonexistent' },
  });
  if (r.code !== 0) {
    removeEntry(file);
    return { unreadable: '(the whole file: git could not read it)' };
  }
  return safeGitConfigText(r.stdout);
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
  let read: Buffer;
  try {
    read = fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err; // unreadable (chmod 000): given back to its owner and read again (withOwnerRetry)
  }
  const safe = readSafeGitConfig(file);
  if ('unreadable' in safe) return [safe.unreadable];
  const { text, removed } = safe;
  if (removed.length === 0) return [];
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
    let now: Buffer | undefined;
    try {
      now = fs.readFileSync(file);
    } catch {
      now = undefined;
    }
    if (!now?.equals(read) && !force) return undefined;
    if (!now?.equals(read)) return sanitizeAgain(file, fd, lock, () => (renamed = true));
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
function sanitizeAgain(file: string, fd: number, lock: string, renamed: () => void): string[] {
  const safe = readSafeGitConfig(file);
  if ('unreadable' in safe) return [safe.unreadable];
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
