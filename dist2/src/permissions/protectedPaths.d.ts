/** A path with a component of one of these names is protected (the whole directory). */
export declare const PROTECTED_DIRECTORY_NAMES: readonly [".git", ".claude", ".durable-agent", ".vscode", ".idea", ".husky", ".cargo", ".devcontainer", ".yarn", ".mvn"];
/** Component sequences protected wherever they appear (git's XDG configuration directory). */
export declare const PROTECTED_SEQUENCES: readonly (readonly string[])[];
/** A file (or directory) with one of these names is protected wherever it is. */
export declare const PROTECTED_FILE_NAMES: readonly [".gitconfig", ".gitmodules", ".bashrc", ".bash_profile", ".zshrc", ".zprofile", ".profile", ".zshenv", ".zlogin", ".zlogout", ".bash_login", ".bash_aliases", ".bash_logout", ".envrc", ".ripgreprc", ".mcp.json", ".claude.json", ".npmrc", ".yarnrc", ".yarnrc.yml", ".pnp.cjs", ".pnp.loader.mjs", ".pnpmfile.cjs", "bunfig.toml", ".bunfig.toml", ".bazelrc", ".bazelversion", ".bazeliskrc", ".pre-commit-config.yaml", "lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml", "gradle-wrapper.properties", "maven-wrapper.properties", ".devcontainer.json", "pyrightconfig.json"];
export interface ProtectionOptions {
    /**
     * Absolute paths protected besides the built-in names: the scripts and build files the loaded
     * hooks run (hookControlFiles). A path equal to one, or inside one, is protected.
     */
    extra?: readonly string[];
}
/**
 * Why an absolute path is protected, or undefined. `dirs` are the session's working directories
 * (pass every form: workingDirForms). Inside a working directory, the components below it are
 * checked (a working directory that is itself under, say, `~/.cargo` is the user's choice); a path
 * outside every working directory is checked whole. Pass each form of the path (pathForms) and
 * treat it as protected when any form is.
 */
export declare function protectedReason(p: string, dirs: readonly string[], opts?: ProtectionOptions): string | undefined;
/** Is the path protected (see protectedReason)? */
export declare function isProtectedPath(p: string, dirs: readonly string[], opts?: ProtectionOptions): boolean;
/** Is any of the forms of one path protected? The first reason found. */
export declare function protectedReasonOfForms(forms: readonly string[], dirs: readonly string[], opts?: ProtectionOptions): string | undefined;
/**
 * Files durable-agent and the reference read as configuration, relative to a project root (all
 * protected). CLAUDE.md is not: the reference's file tools write it unasked, and it configures
 * nothing that runs.
 */
export declare const PROJECT_CONTROL_FILES: readonly [".claude/settings.json", ".claude/settings.local.json", ".durable-agent/settings.json", ".mcp.json"];
/** Directories whose files configure the agent or run code, relative to a project root. */
export declare const PROJECT_CONTROL_DIRECTORIES: readonly [".claude", ".durable-agent"];
/**
 * In `.git`, what runs code: the config (core.fsmonitor, core.pager, aliases, filters…), the
 * per-worktree config, the hooks, and the pointer to the common directory (whose config runs).
 * The rest of `.git` (objects, refs, index) stays writable for git itself.
 */
export declare const GIT_CONTROL_ENTRIES: readonly ["config", "config.worktree", "commondir", "hooks"];
export interface ControlFiles {
    /** Files, existing or not. */
    files: string[];
    /** Directories whose whole content is protected, existing or not. */
    directories: string[];
}
/**
 * The concrete protected paths at each working directory (and the extra paths, e.g. the hook
 * scripts), whether they exist or not: the settings and memory files, `.claude/`,
 * `.durable-agent/`, the other protected directories, `.git`'s config, hooks and pointers, every
 * protected file name. Nested occurrences (a sub-repository's `.git/config`) are found by a scan
 * (src/sandbox/protect.ts), not here.
 */
export declare function controlFiles(dirs: readonly string[], opts?: ProtectionOptions): ControlFiles;
export interface HookCommand {
    command: string;
    args?: readonly string[];
}
/**
 * The files a session's command hooks run, resolved against `cwd` (the hooks' cwd) with
 * `$CLAUDE_PROJECT_DIR` expanded: every word that names a path (has a `/` or a script extension;
 * existing or not, so that creating it is caught too) and the task file of a task runner
 * (`npm run x` → package.json, `make` → Makefile…). Paths outside the working directories are
 * left out (not writable anyway); an over-approximation otherwise: protecting one file too many
 * costs an approval, one too few a hook that runs what the agent wrote.
 */
export declare function hookControlFiles(hooks: readonly HookCommand[], cwd: string, dirs: readonly string[], home?: string): string[];
/** A stdio MCP server's command line, as configured (`command` is run as one word, without a shell). */
export interface McpServerCommand {
    command: string;
    args?: readonly string[];
}
/**
 * The files the session's stdio MCP servers run, resolved against `cwd` (where the worker starts
 * them): like hookControlFiles, from the words of `command` and `args` (each one word, as no shell
 * runs them; an argument with spaces split into words too), and for a package runner (`npx -y @scope/server`) the copy a local install would
 * run instead (`node_modules/@scope/server`, `node_modules/.bin/server`) when `exists` says it is
 * there (an absent one is left out: denying it would make `node_modules` itself unwritable). Only
 * paths inside the working directories.
 */
export declare function mcpServerControlFiles(servers: readonly McpServerCommand[], cwd: string, dirs: readonly string[], home?: string, exists?: (p: string) => boolean): string[];
