/**
 * Expands `{a,b}` alternatives (nested too): "src/{a,b/{c,d}}.ts" -> ["src/a.ts", "src/b/c.ts",
 * "src/b/d.ts"]. A brace group without a top-level comma, or unclosed, stays literal.
 */
export declare function expandBraces(pattern: string): string[];
/** Regex source (unanchored) for one brace-free glob. */
export declare function globToRegExpSource(p: string): string;
export interface GlobRegExpOptions {
    /** Expand {a,b} alternatives (default true; gitignore patterns do not use them). */
    braces?: boolean;
    nocase?: boolean;
}
/** Anchored RegExp matching whole POSIX relative paths. */
export declare function globToRegExp(pattern: string, options?: GlobRegExpOptions): RegExp;
/** True when the glob segment has any special character. */
export declare function hasGlobMagic(segment: string): boolean;
/**
 * Splits a brace-free glob into its literal leading directory and the rest:
 * "src/tools/**\/*.ts" -> { base: "src/tools", rest: "**\/*.ts" }.
 */
export declare function splitStaticPrefix(pattern: string): {
    base: string;
    rest: string;
};
