export interface PatchHunk {
    oldStart: number;
    oldLines: number;
    newStart: number;
    newLines: number;
    lines: string[];
}
/** The hunks that turn `before` into `after` ([] when they are equal). */
export declare function filePatch(before: string, after: string): PatchHunk[];
