import type { RealPathCheck } from '../safeFs';
export type GrepMode = 'content' | 'files_with_matches' | 'count';
export type GrepEngineName = 'ripgrep' | 'javascript';
export interface GrepQuery {
    pattern: string;
    /** Absolute file or directory. */
    target: string;
    targetIsFile: boolean;
    mode: GrepMode;
    /** rg --glob patterns (already split). */
    globs: string[];
    /** Basename globs of the selected file type, if any. */
    typeGlobs?: readonly string[];
    caseInsensitive: boolean;
    multiline: boolean;
    before: number;
    after: number;
    /** Content mode: also report the matched texts (GrepLine.parts), for -o. */
    onlyMatching?: boolean;
    signal: AbortSignal;
    /**
     * What the search may open, judged on real paths (src/tools/safeFs.ts): `root` for the target
     * once it is open, `under` for each file found below the root's real path. Default: anything.
     */
    access?: GrepAccess;
}
export interface GrepAccess {
    root: RealPathCheck;
    under(rootReal: string): RealPathCheck;
}
export declare const OPEN_ACCESS: GrepAccess;
export interface GrepLine {
    n: number;
    text: string;
    match: boolean;
    /** With onlyMatching: the non-empty matches that start on this line, in order (a multiline one whole). */
    parts?: string[];
}
export interface GrepFileHit {
    /** Absolute path. */
    path: string;
    /** Matches in the file (count mode only; 0 otherwise). */
    count: number;
    /** Matching and context lines, ascending (content mode only). */
    lines: GrepLine[];
}
export interface GrepEngineResult {
    engine: GrepEngineName;
    hits: GrepFileHit[];
    warnings: string[];
}
/** A regex error, carrying the engine's own message. */
export declare class GrepPatternError extends Error {
}
/**
 * File types (rg --type), with ripgrep's own definitions so both engines agree. Globs match the
 * file's base name.
 */
export declare const GREP_FILE_TYPES: Readonly<Record<string, readonly string[]>>;
/** Splits the Grep `glob` input like the reference: on whitespace, and on commas outside braces. */
export declare function splitGlobs(glob: string | undefined): string[];
