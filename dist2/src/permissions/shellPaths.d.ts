import type { PermissionEnv } from './matcher';
import type { HiddenPaths } from './resultFilter';
export type Outside = {
    reason: string;
    path?: string;
};
/** Does this command follow symbolic links while walking directories (so it can leave them)? */
export declare function followsLinksRecursively(tokens: string[]): boolean;
/** Does the command read whole directory trees (so a denied file inside one could be shown)? */
export declare function searchesDirectories(tokens: string[]): boolean;
/** The paths a glob pattern (escaped form) can name, from `cwd`; undefined when too many. */
export declare function expandGlobPaths(pattern: string, cwd: string): string[] | undefined;
/**
 * For a read-only shell command: undefined when every file it can name stays inside the
 * working directories, else a reason (also when the command cannot be analysed with certainty).
 */
export declare function shellReadOutside(command: string, env: PermissionEnv, hidden?: HiddenPaths): Outside | undefined;
/**
 * acceptEdits: is the command only mkdir/touch/mv/cp/rm/rmdir on paths inside the working
 * directories (not a working directory itself for rm/rmdir/mv, no protected path and no directory
 * holding one: protectedPaths.ts)? sed is left
 * out on purpose: its script can write anywhere (`w /path`).
 */
export declare function fsCommandsInside(command: string, env: PermissionEnv, controlFiles?: readonly string[]): boolean;
