export declare function expandHome(p: string, home?: string): string;
/** Absolute, normalised (`..` resolved) path, relative paths taken from `cwd`. No filesystem access. */
export declare function resolveLogical(p: string, cwd: string): string;
/**
 * The real path: symlinks resolved. For a path that does not exist yet (a file to be created),
 * the realpath of its nearest existing ancestor plus the remaining components. Never throws: a
 * loop or an unreadable ancestor gives the logical path back.
 */
export declare function resolveReal(absolute: string): string;
/**
 * How the kernel resolves a path: components left to right, a `..` taking the parent of the REAL
 * directory reached so far (`link/../x` is next to the link's target, not next to the link).
 */
export declare function resolvePhysical(p: string, cwd: string): string;
/** The logical, the real and the physical form of a path (duplicates removed). */
export declare function pathForms(p: string, cwd: string): string[];
export declare function isInside(child: string, dir: string): boolean;
/** Working directories in both logical and real form. */
export declare function workingDirForms(dirs: readonly string[]): string[];
/** Is every form of the path inside some working directory? */
export declare function insideWorkingDirs(forms: readonly string[], workingDirs: readonly string[]): boolean;
export interface PathPattern {
    /** The spec as written in the rule. */
    spec: string;
    /** Where an anchored pattern is rooted: 'cwd' (`x/y`, `./x`, `/x`), 'root' (`//abs`), 'home' (`~/x`). */
    base: 'cwd' | 'root' | 'home';
    /** The pattern relative to its base, without leading `/` or `./`. */
    pattern: string;
    /** A pattern with no slash (other than a trailing one) matches at any depth. */
    anywhere: boolean;
    regex: RegExp;
}
export declare function compilePathPattern(spec: string): PathPattern;
/** gitignore glob → regex source: `**` spans directories, `*`/`?` stay within one, `[...]` classes. */
export declare function globToRegex(glob: string): string;
export interface PathMatchEnv {
    /** Base for relative patterns: the session cwd. */
    cwd: string;
    home?: string;
}
/**
 * Does an absolute path match a rule's path spec? `outsideBaseToo`: a slashless pattern (e.g.
 * `*.env`) also matches paths outside its base — used for deny/ask rules, where matching more is
 * the safe side.
 */
export declare function matchPathPattern(spec: string | PathPattern, absolutePath: string, env: PathMatchEnv, outsideBaseToo?: boolean): boolean;
