/** Every patch id used in src/: string literals, or constants declared as `export const X = '…'`. */
export declare function patchIdsInSource(): Map<string, string[]>;
/** The patch ids whose markers a recorded history holds. */
export declare function patchMarkers(file: string): string[];
