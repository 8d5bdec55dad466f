import { type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
/** Decides whether a real path may be opened: undefined when it may, else why not. */
export type RealPathCheck = (real: string) => string | undefined;
/** The check refused what was opened (or a swap was seen): nothing was read or written. */
export declare class AccessRefusedError extends Error {
    readonly realPath: string;
    readonly code = "EACCESREFUSED";
    constructor(message: string, realPath: string);
}
export declare function isAccessRefused(err: unknown): err is AccessRefusedError;
/** Does this system name descriptors under /proc/self/fd (Linux)? Probed once. */
export declare function hasProcFd(): Promise<boolean>;
export interface BoundFile {
    fh: FileHandle;
    /** The real path of the opened file, as the kernel reports it. */
    real: string;
    stat: Stats;
}
/**
 * Opens a regular file for reading, bound to what was opened: the last component is not
 * followed blindly (a symlink there is resolved once, by name, and its target opened without
 * following), the descriptor's real path must pass `check`, and only then is it looked at: a
 * directory or a non-regular file (FIFO, device, socket) is refused without blocking.
 * The caller reads from `fh` only, and closes it.
 */
export declare function openFileBound(abs: string, check: RealPathCheck): Promise<BoundFile>;
/** A whole regular file read through a bound descriptor. */
export declare function readFileBound(abs: string, check: RealPathCheck): Promise<{
    buf: Buffer;
    real: string;
    stat: Stats;
}>;
/** A directory held open: names inside it are reached through `at`, never through its path. */
export interface BoundDir {
    fh: FileHandle;
    /** The directory's real path, as the kernel reports it. */
    real: string;
    /** A path that reaches this very directory (`/proc/self/fd/N` on Linux, else its real path). */
    at: string;
    close(): Promise<void>;
}
/** Opens a directory (symlinks on the way are followed) and binds it; `check` judges its real path. */
export declare function openDirBound(abs: string, check: RealPathCheck): Promise<BoundDir>;
/** A subdirectory of a bound directory, opened through it; a symlink there is refused (ELOOP/ENOTDIR). */
export declare function openChildDir(parent: BoundDir, name: string): Promise<BoundDir>;
/** lstat of a name inside a bound directory (not followed). */
export declare function lstatIn(dir: BoundDir, name: string): Promise<Stats>;
export interface WriteBoundResult {
    /** The real path written. */
    real: string;
    /** The file's stats after the write (mtime for the read-file state). */
    stat: Stats;
    /** No file was there before. */
    created: boolean;
}
/**
 * Writes a whole file bound to the directory it lands in. A symlink at the given name is followed
 * (by name, as writeFile would) to its target; then the target's parent directory is bound (and
 * created through bound descriptors when `createParents`), the final real path must pass `check`,
 * the content goes to a new temp file created there with O_CREAT|O_EXCL|O_NOFOLLOW, and a rename
 * puts it in place. A rename replaces whatever the final name is at that moment — a symlink or a
 * hard link swapped in is replaced, never written through.
 *
 * What a rename changes (docs/tools.md): the file gets a new inode, so other hard links keep the
 * old content; its mode is copied from the old file (permission bits), its owner too when the
 * worker may (root), extended attributes and ACLs are not. When the directory does not let us
 * create the temp file (EACCES, EPERM, EROFS) but the file itself is writable, the file is
 * rewritten in place through the bound directory with O_NOFOLLOW.
 */
export declare function writeFileBound(abs: string, data: string | Buffer, check: RealPathCheck, opts?: {
    createParents?: boolean;
}): Promise<WriteBoundResult>;
/**
 * readFileBound for synchronous callers (the memory loader runs before a session starts): the
 * same steps — not followed blindly, the descriptor's real path judged, then read from it.
 */
export declare function readFileBoundSync(abs: string, check: RealPathCheck): {
    buf: Buffer;
    real: string;
};
