/** Absolute paths: files are looked at themselves, directories with what they hold (bounded). */
export interface ControlPathSet {
    files: string[];
    dirs: string[];
    /** Is an entry found inside one of `dirs` a control file? (`.claude/worktrees/…` is not.) Default: all are. */
    holds?: (path: string) => boolean;
}
/** The control files of a session with these working directories (cwd first) and these hook-run files. */
export declare function controlPathSet(workingDirectories: readonly string[], hookFiles?: readonly string[]): ControlPathSet;
