import type { ControlWrite } from '../engine/records';
import type { ControlPathSet } from './controlFiles';
export interface WalkLimits {
    /** Entries looked at in all (files, links, directories). Default 4,000. */
    maxEntries?: number;
    /** Entries looked at below one control directory (a large `.yarn` must not hide the others). Default 500. */
    maxPerDirectory?: number;
    /** Levels below each control directory. Default 4. */
    maxDepth?: number;
}
/** path → what it is now (absent: the path does not exist); `truncated`: a walk hit its limits. */
export interface ControlSnapshot {
    entries: Map<string, string>;
    truncated: boolean;
}
/** A cheap snapshot for one call: metadata only. */
export declare function snapshotControlFiles(set: ControlPathSet, limits?: WalkLimits): Promise<ControlSnapshot>;
/** A snapshot by content, to compare across sessions: sha256 of each file, a link's target. */
export declare function hashControlFiles(set: ControlPathSet, limits?: WalkLimits): Promise<ControlSnapshot>;
/**
 * What changed from `before` to `after`, sorted by path. A directory created or deleted together
 * with entries under it is named by its entries only.
 */
export declare function controlChanges(before: ControlSnapshot, after: ControlSnapshot): ControlWrite[];
