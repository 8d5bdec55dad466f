export interface PatchVersion {
    /** The id passed to `patched()`. */
    id: string;
    /** The commit that introduced it (for the newest: the main commit it landed on). */
    since: string;
    /** Which workflow, and what it does differently under the patch. */
    why: string;
    /** Fixtures (test/fixtures/histories) recorded under the patch: each holds its marker. */
    fixtures: string[];
    /** Fixtures recorded before the patch (no marker): the old command sequence still replays. */
    before: string[];
    /** The next step of its life cycle. */
    deprecate: string;
    /** Changes made under the id after it shipped (there must be none; see the rules above). */
    amendments?: string[];
}
export declare const PATCHES: readonly PatchVersion[];
