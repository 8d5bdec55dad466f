/** Version-control directories never searched (as the reference passes `--glob !.git` etc.). */
export declare const VCS_DIRECTORIES: readonly [".git", ".svn", ".hg", ".bzr", ".jj", ".sl"];
export interface IgnoreRule {
    regex: RegExp;
    negate: boolean;
    dirOnly: boolean;
}
export interface IgnoreRuleSet {
    /** Absolute directory the rules are relative to. */
    base: string;
    rules: IgnoreRule[];
}
/** Parses one gitignore-style pattern; null for blank lines and comments. */
export declare function parseIgnorePattern(line: string, options?: {
    braces?: boolean;
}): IgnoreRule[] | null;
export declare function parseIgnoreFile(text: string): IgnoreRule[];
/**
 * Decision for `abs` given rule sets ordered outermost first: true = ignored,
 * false = explicitly re-included, undefined = no rule matched.
 */
export declare function matchIgnore(sets: readonly IgnoreRuleSet[], abs: string, isDir: boolean): boolean | undefined;
/**
 * Reads `<dir>/.gitignore` (null when absent or unreadable). `readFrom` reaches the same directory
 * through a bound descriptor (walk.ts); the file itself is not followed when it is a symlink there.
 */
export declare function loadIgnoreFile(dir: string, readFrom?: string): Promise<IgnoreRuleSet | null>;
/** .gitignore rule sets of every strict ancestor of `dir`, outermost first. */
export declare function loadParentIgnores(dir: string): Promise<IgnoreRuleSet[]>;
