export interface ShellWord {
    /** As written in the command. */
    raw: string;
    /**
     * Every value the word can take (brace expansion can give several), quotes removed; undefined
     * when the value is only known at run time ($VAR, $(…), ~user…).
     */
    values?: string[];
    /** Escaped forms, one per value: what bash matches against the file system when `glob`. */
    patterns?: string[];
    /** Contains an unquoted `*`, `?` or `[`: bash replaces it by matching file names. */
    glob: boolean;
    /** Why the value is not known statically. */
    dynamic?: string;
}
/** Backslash-escapes every character that is not a plain ASCII letter or digit. */
export declare function escapeAll(s: string): string;
/** Removes the escaping backslashes of an escaped form. */
export declare function unescapeForm(s: string): string;
/** Does the escaped form contain an unescaped character of `set`? */
export declare function hasUnescaped(s: string, set: string): boolean;
/** The contents of a double-quoted string (without its quotes), as bash reads them. */
export declare function doubleQuotedValue(inner: string): string;
/** Decodes the inside of `$'…'` like bash (a NUL ends the string, as in bash). */
export declare function decodeAnsiC(inner: string): string;
/** Brace expansion of an escaped form; throws when it would give too many words. */
export declare function expandBraceForm(s: string, budget?: {
    left: number;
}): string[];
/**
 * Finishes a word from its escaped form: brace expansion, tilde expansion (`~` and `~/…` only;
 * `~user`, `~+`, `~-` are not known statically) and glob detection.
 */
export declare function wordFromForm(raw: string, form: string, home: string): ShellWord;
export declare function dynamicWord(raw: string, why: string): ShellWord;
