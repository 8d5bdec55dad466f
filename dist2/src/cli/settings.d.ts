import { DurableAgentError } from '../engine/errors';
import { type SandboxSettings } from '../sandbox/settings';
import { type PermissionMode } from '../tools/permissionTypes';
import type { HooksJson } from '../workflows/definitions';
import { type McpSettings } from '../mcp/config';
export interface SettingsFile {
    model?: string;
    maxTokens?: number;
    permissions?: {
        allow?: string[];
        ask?: string[];
        deny?: string[];
        defaultMode?: PermissionMode;
        additionalDirectories?: string[];
        disableBypassPermissionsMode?: 'disable';
    };
    hooks?: HooksJson;
    sandbox?: SandboxSettings;
    /** The reference's auto-compact switch (default true; DISABLE_AUTO_COMPACT=1 turns it off too). */
    autoCompactEnabled?: boolean;
    disableAllHooks?: boolean;
    /** Managed settings only. */
    allowManagedHooksOnly?: boolean;
    /** Managed settings only. */
    allowManagedPermissionRulesOnly?: boolean;
    /** Globs (or absolute paths) of CLAUDE.md files not to load (src/memory/claudeMd.ts). */
    claudeMdExcludes?: string[];
}
export type SettingsScope = 'user' | 'project' | 'local' | 'managed';
export interface EffectiveSettings {
    model?: string;
    maxTokens?: number;
    allow: string[];
    ask: string[];
    deny: string[];
    mode?: PermissionMode;
    additionalDirectories: string[];
    hooks?: HooksJson;
    sandbox?: SandboxSettings;
    /** `permissions.disableBypassPermissionsMode: "disable"` in any file. */
    disableBypassPermissionsMode: boolean;
    /** The (highest) file that disabled bypassPermissions mode. */
    bypassDisabledBy?: string;
    /** `mcpServers` and the `.mcp.json` approval keys (src/mcp/config.ts). */
    mcp?: McpSettings;
    autoCompactEnabled?: boolean;
    sources: string[];
    /** `<file>: <key>: <what>` for keys that were not used; show them to the user. */
    warnings: string[];
    /** `<file>: <keys> …` for keys of Claude Code's interactive UI, login and updates (one line per file). */
    notes: string[];
    /** `claudeMdExcludes` of every file, concatenated (not the managed memory's). */
    claudeMdExcludes: string[];
    /** Scalars the managed settings set: a command-line flag does not override them. */
    managed: {
        model?: string;
        maxTokens?: number;
        mode?: PermissionMode;
        path?: string;
    };
    /** `allowManagedPermissionRulesOnly` in the managed settings: only its rules apply (flags' rules too are dropped). */
    managedRulesOnly: boolean;
}
export declare class SettingsError extends DurableAgentError {
    constructor(message: string);
}
export declare function userSettingsPath(): string;
export declare function projectSettingsPath(cwd: string): string;
/** The managed settings file (`DURABLE_AGENT_MANAGED_SETTINGS` overrides the platform's path). */
export declare function managedSettingsPath(): string;
/** Every settings key this loader knows (honoured or reported): docs/settings.md has a row for each. */
export declare function knownSettingsKeys(): string[];
/** A directory named in settings: `~` and `~/…` in the home directory (as the reference), else against the working directory. */
export declare function settingsDir(d: string, cwd: string): string;
/**
 * A settings file's JSON. As the reference: a UTF-8 byte-order mark is skipped and an empty file
 * holds no settings. Unlike the reference (which skips a malformed file without a word in `-p`
 * mode), malformed JSON is an error naming the file, line and column.
 */
export declare function parseSettingsJson(path: string, text: string): unknown;
/**
 * The managed drop-in files, as the reference reads them after managed-settings.json:
 * `managed-settings.d/*.json` beside it, in name order, dot files skipped.
 */
export declare function managedDropIns(dir: string): string[];
/**
 * The files read, lowest precedence first, each with its scope and the directory its relative
 * paths are resolved against (the project root for project files, the file's directory otherwise).
 */
export declare function settingsSources(cwd: string): Array<{
    path: string;
    base: string;
    scope: SettingsScope;
}>;
export declare function loadSettings(cwd: string, paths?: string[]): EffectiveSettings;
