/** Expands `~` and resolves `p` against `cwd`; absolute paths are only normalised. */
export declare function resolvePath(cwd: string, p: string): string;
/** A copy of `input` with its path field (when a string) resolved against `cwd`: what hooks see. */
export declare function withAbsolutePath<T extends object>(input: T, key: keyof T & string, cwd: string): T;
/** `abs` relative to `cwd` when it lies inside cwd, else absolute (the seed's toRelativePath). */
export declare function toDisplayPath(cwd: string, abs: string): string;
/** POSIX-style relative path ('' for the root itself). */
export declare function relPosix(from: string, to: string): string;
export declare function isErrno(err: unknown, code: string): boolean;
export declare function throwIfAborted(signal: AbortSignal | undefined): void;
/** `cat -n` style: right-aligned line number (width 6), a tab, the line. */
export declare function formatNumberedLine(lineNumber: number, text: string): string;
/** Does the buffer look binary (a NUL byte in it)? */
export declare function looksBinary(buf: Uint8Array): boolean;
