/** Commands with no option that writes a file or runs a program, whatever their arguments. */
export declare const SIMPLE_READ_ONLY: Set<string>;
/** Read-only only under conditions on their options (checked on static words only). */
export declare const CONDITIONAL_READ_ONLY: Set<string>;
/** Is the whole command provably read-only? Unsure -> false. */
export declare function isReadOnlyCommand(command: string): boolean;
/** Words of the last simple command (whose exit status is the command's), or null. */
export declare function lastCommandWords(command: string): string[] | null;
/** Commands for which exit code 1 is an answer, not a failure. */
export declare function exitCodeOneIsBenign(command: string): boolean;
/** The target of a command that is exactly `cd DIR` (or `cd`), else undefined. */
export declare function standaloneCd(command: string): {
    target: string | undefined;
} | undefined;
