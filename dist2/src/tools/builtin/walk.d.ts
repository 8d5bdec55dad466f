import { type RealPathCheck } from '../safeFs';
export interface WalkEntry {
    abs: string;
    /** POSIX path relative to the walk root. */
    rel: string;
    name: string;
    isDir: boolean;
}
export interface WalkOptions {
    root: string;
    signal?: AbortSignal;
    /** Default true. */
    respectGitignore?: boolean;
    /**
     * Consulted before .gitignore: 'include' keeps the entry whatever .gitignore says,
     * 'exclude' drops it, undefined lets .gitignore decide.
     */
    override?(entry: WalkEntry): 'include' | 'exclude' | undefined;
    /** Return false to skip a directory (and everything below it). */
    descend?(relDir: string): boolean;
    /** Judges the root's real path once it is open (default: any). A refusal throws AccessRefusedError. */
    rootCheck?: RealPathCheck;
    /** Files for which walkFileStats records an mtime (lstat inside the bound directory). */
    statFile?(rel: string): boolean;
}
export interface WalkedFile {
    abs: string;
    /** With `statFile`: the file's mtime, read through the bound directory (0 when not asked or gone). */
    mtimeMs: number;
}
/** Absolute paths of the regular files under `root` that survive the filters. */
export declare function walkFiles(options: WalkOptions): Promise<string[]>;
/** walkFiles with the mtimes `statFile` asks for. Paths are `root` joined with what was walked. */
export declare function walkFileStats(options: WalkOptions): Promise<WalkedFile[]>;
