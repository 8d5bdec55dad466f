// Path helpers shared by the built-in tools: every path resolves against the session's cwd.
import * as os from 'node:os';
import * as path from 'node:path';

/** Expands `~` and resolves `p` against `cwd`; absolute paths are only normalised. */
export function resolvePath(cwd: string, p: string): string {
  let s = p;
  if (s === '~') s = os.homedir();
  else if (s.startsWith('~/')) s = path.join(os.homedir(), s.slice(2));
  return path.isAbsolute(s) ? path.normalize(s) : path.resolve(cwd, s);
}

/** A copy of `input` with its path field (when a string) resolved against `cwd`: what hooks see. */
export function withAbsolutePath<T extends object>(input: T, key: keyof T & string, cwd: string): T {
  const value = (input as Record<string, unknown>)[key];
  return typeof value === 'string' ? { ...input, [key]: resolvePath(cwd, value) } : input;
}

/** `abs` relative to `cwd` when it lies inside cwd, else absolute (the seed's toRelativePath). */
export function toDisplayPath(cwd: string, abs: string): string {
  const rel = path.relative(cwd, abs);
  if (rel === '') return '.';
  if (rel.startsWith('..') || path.isAbsolute(rel)) return abs;
  return rel;
}

/** POSIX-style relative path ('' for the root itself). */
export function relPosix(from: string, to: string): string {
  return path.relative(from, to).split(path.sep).join('/');
}

export function isErrno(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as NodeJS.ErrnoException).code === code;
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    throw reason instanceof Error ? reason : new Error('The operation was aborted');
  }
}

/** `cat -n` style: right-aligned line number (width 6), a tab, the line. */
export function formatNumberedLine(lineNumber: number, text: string): string {
  return `${String(lineNumber).padStart(6, ' ')}\t${text}`;
}

/** Does the buffer look binary (a NUL byte in it)? */
export function looksBinary(buf: Uint8Array): boolean {
  return buf.indexOf(0) !== -1;
}
