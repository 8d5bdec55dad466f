export interface SystemPackageSpec {
    /** A command looked up on PATH, or an absolute path. */
    command: string;
    /** The Debian package that provides it (the install hint: `apt-get install -y <debianPackage>`). */
    debianPackage: string;
    /** What needs it, for the skip line ("the UI test", "Grep's ripgrep engine tests"). */
    usedBy: string;
    /** A custom probe instead of looking `command` up (returns what was found, or undefined). */
    probe?: () => string | undefined;
    /** An env var that, set to 1, skips the test on purpose, even under CI. */
    optOutEnv?: string;
}
export interface SystemRequirement {
    found: boolean;
    /** The path or command found. */
    path?: string;
    /** For node:test's `skip` option. */
    skip: string | false;
    /** Throws the install hint when the package is missing (the test fails under CI). */
    assert(): void;
    /** `<command> not found: apt-get install -y <package> (needed by …)` */
    hint: string;
}
export declare function isCI(): boolean;
/** An executable file at `command` (absolute) or on PATH. */
export declare function findExecutable(command: string): string | undefined;
/** Records a skip for the runner's summary line (no-op when the file runs on its own). */
export declare function reportSkip(line: string): void;
export declare function requireSystemPackage(spec: SystemPackageSpec): SystemRequirement;
