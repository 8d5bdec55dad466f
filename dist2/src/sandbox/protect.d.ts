/** How deep below a working directory protected entries are looked for (the runtime's own scan: 3). */
export declare const PROTECTED_SCAN_DEPTH = 5;
/** Directory entries one scan reads at most, over all working directories. */
export declare const PROTECTED_SCAN_BUDGET = 50000;
/**
 * Denied at each working directory whether they exist or not (their creation must fail): what
 * configures this agent or the reference, and what git, a shell or an editor runs by itself.
 * The other protected names are denied where they exist and removed after the call if it made
 * them (a placeholder for each of ~40 names in every directory would litter the project).
 */
export declare const DENIED_EVEN_ABSENT: readonly [".claude", ".durable-agent", ".mcp.json", ".claude.json", ".vscode", ".idea", ".envrc", ".gitmodules", ".gitconfig", ".husky", ".devcontainer", ".devcontainer.json", ".bashrc", ".bash_profile", ".zshrc", ".zprofile", ".profile", ".ripgreprc"];
export interface ProtectedEntry {
    path: string;
    /** What it is for the check after the call. */
    kind: 'file' | 'dir' | 'gitConfig' | 'gitHooks' | 'gitPointer';
    /** It was there, with content, when the scan ran. */
    existed: boolean;
}
export interface ProtectedScan {
    entries: Map<string, ProtectedEntry>;
    /** The scan stopped at the budget: entries below what it reached are unknown. */
    truncated: boolean;
}
/**
 * The protected entries below the working directories, to the depth and budget (no symlink is
 * followed; node_modules is skipped, as the runtime's scan does). `extra`: the hook scripts.
 */
export declare function scanProtected(roots: readonly string[], extra?: readonly string[], maxDepth?: number, budget?: number): ProtectedScan;
/**
 * The call's write-deny list: the protected entries the scan found (existing), the names denied
 * even when absent at every working directory, `.git`'s config and hooks where `.git` is a
 * directory (an absent `.git` is left creatable: `git init` must work; the check after the call
 * handles what such a call puts in it), the hook scripts, and `extraRoots`' names (writable
 * directories from `sandbox.filesystem.allowWrite`, checked by name only, not scanned).
 */
export declare function protectedDenyWrite(scan: ProtectedScan, workingDirs: readonly string[], extraRoots?: readonly string[]): string[];
/**
 * After a sandboxed call: undoes the protected entries that are new since `before` and were not
 * under the call's deny list (so the call could write them). Returns one line per undone write
 * (for the tool result). `rootsReal`: the working directories as real paths (scan roots).
 */
export declare function undoProtectedWrites(before: ProtectedScan, after: ProtectedScan, denyWrite: readonly string[], roots: readonly string[]): string[];
