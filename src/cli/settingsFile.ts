// One settings file: its shape, read (BOM, empty file, JSON errors with line and column) and checked
// key by key — loud configuration (invariant 12): an error or a warning naming the file and the key.
import { DurableAgentError } from '../core/errors';
import { hookConfigWarnings, normalizeHooksConfig, referenceOnlyHookEvents } from '../hooks/config';
import { readConfigFileSync } from '../permissions/configRead';
import { parseRule } from '../permissions/rules';
import {
  projectScopeReads,
  resolveSandboxPaths,
  validateSandboxSettings,
  type SandboxSettings,
} from '../sandbox/settings';
import { PERMISSION_MODES, type PermissionMode } from '../toolProtocol/permissionTypes';
import type { HooksJson } from '../temporal/workflows/definitions';
import { MCP_SETTINGS_KEYS, McpConfigError, mergeMcpSettings, type McpSettings } from '../mcp/config';
import { NOT_APPLICABLE_KEYS, UNSUPPORTED_KEYS, unhonouredKey } from './settingsKeys';
import { parseConfigJson } from '../core/jsonPosition';
import { notifySettingsProblems, type NotifySettings } from '../core/notifications';

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
  /** The reference's thinking switch: false turns extended thinking off (default on; src/core/thinking.ts). */
  alwaysThinkingEnabled?: boolean;
  disableAllHooks?: boolean;
  /** Managed settings only. */
  allowManagedHooksOnly?: boolean;
  /** Managed settings only. */
  allowManagedPermissionRulesOnly?: boolean;
  /** Globs (or absolute paths) of CLAUDE.md files not to load (src/claudeMd/claudeMd.ts). */
  claudeMdExcludes?: string[];
  /** durable-agent only: notifications (core/notifications.ts; docs/deployment.md "Notifications"). */
  notify?: NotifySettings;
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
  /**
   * `sandbox.passEnv` of the user's and managed files only (never a project's or local file): the
   * worker variables a project's MCP configuration may expand besides the allowlist (src/mcp/config.ts).
   */
  personPassEnv?: string[];
  autoCompactEnabled?: boolean;
  alwaysThinkingEnabled?: boolean;
  sources: string[];
  /** `<file>: <key>: <what>` for keys that were not used; show them to the user. */
  warnings: string[];
  /** `<file>: <keys> …` for keys of Claude Code's interactive UI, login and updates (one line per file). */
  notes: string[];
  /** `claudeMdExcludes` of every file, concatenated (not the managed memory's). */
  claudeMdExcludes: string[];
  /** `notify` of the files, key by key (a higher file's key wins). */
  notify?: NotifySettings;
  /** Scalars the managed settings set: a command-line flag does not override them. */
  managed: { model?: string; maxTokens?: number; mode?: PermissionMode; path?: string };
  /** `allowManagedPermissionRulesOnly` in the managed settings: only its rules apply (flags' rules too are dropped). */
  managedRulesOnly: boolean;
}

export class SettingsError extends DurableAgentError {
  constructor(message: string) {
    super('SETTINGS', message);
  }
}
/** The keys this loader honours, per section. */
const TOP_KEYS = new Set([
  '$schema',
  'model',
  'claudeMdExcludes',
  'maxTokens',
  'notify',
  'permissions',
  'hooks',
  'sandbox',
  'autoCompactEnabled',
  'alwaysThinkingEnabled',
  'disableAllHooks',
  'allowManagedHooksOnly',
  'allowManagedPermissionRulesOnly',
  ...MCP_SETTINGS_KEYS,
]);
/** Honoured only in the managed settings (a warning elsewhere, as the reference ignores them there). */
const MANAGED_ONLY_KEYS = new Set(['allowManagedHooksOnly', 'allowManagedPermissionRulesOnly']);
const PERMISSION_KEYS = new Set([
  'allow',
  'ask',
  'deny',
  'defaultMode',
  'additionalDirectories',
  'disableBypassPermissionsMode',
]);
/** Every settings key this loader knows (honoured or reported): docs/settings.md has a row for each. */
export function knownSettingsKeys(): string[] {
  return [
    ...TOP_KEYS,
    ...Object.keys(UNSUPPORTED_KEYS),
    ...NOT_APPLICABLE_KEYS,
    ...[...PERMISSION_KEYS].map((k) => `permissions.${k}`),
  ];
}
/** `<file>: <key> …` — the form of every settings message. */
export function at(path: string, key: string, what: string): string {
  return `${path}: ${key} ${what}`;
}

export interface Loaded {
  settings: SettingsFile;
  warnings: string[];
  notes: string[];
  mcp?: McpSettings;
}

/**
 * A settings file's JSON. As the reference: a UTF-8 byte-order mark is skipped and an empty file
 * holds no settings. Unlike the reference (which skips a malformed file without a word in `-p`
 * mode), malformed JSON is an error naming the file, line and column.
 */
export function parseSettingsJson(path: string, text: string): unknown {
  if ((text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).trim() === '') return {};
  return parseConfigJson(path, text, (m) => new SettingsError(m));
}

export function readSettings(path: string, base: string, scope: SettingsScope = 'user'): Loaded | undefined {
  // A project's file must lie inside the project; none may lead to a credential file (src/permissions/configRead.ts).
  const read = readConfigFileSync(path, scope === 'project' || scope === 'local' ? { within: [base] } : {});
  if ('missing' in read) return undefined;
  if ('refused' in read) throw new SettingsError(`${path}: not read: ${read.refused}`);
  const parsed = parseSettingsJson(path, read.text);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new SettingsError(`${path} must hold a JSON object`);
  const raw = parsed as Record<string, unknown>;
  const { warnings, notes } = unhonouredKeys(path, raw);
  // Each check throws a SettingsError or adds its warnings, in this order (the first error is the one reported).
  const s = raw as SettingsFile;
  checkScalars(path, s, scope, warnings);
  if (s.hooks !== undefined) checkHooks(path, s.hooks, warnings);
  const perms = s.permissions as Record<string, unknown> | undefined;
  if (perms !== undefined) checkPermissions(path, perms, warnings);
  if (s.sandbox !== undefined) {
    const problems = validateSandboxSettings(s.sandbox);
    const errors = problems.filter((p) => p.level === 'error');
    if (errors.length > 0) throw new SettingsError(errors.map((p) => `${path}: ${p.message}`).join('\n'));
    warnings.push(...problems.filter((p) => p.level === 'warning').map((p) => `${path}: ${p.message}`));
    s.sandbox = resolveSandboxPaths(s.sandbox, base);
    if (scope === 'project' || scope === 'local') {
      // A project re-opens reads only inside itself (HOME is closed: src/permissions/homeReads.ts).
      const { settings, dropped } = projectScopeReads(s.sandbox, base);
      s.sandbox = settings;
      if (dropped.length > 0)
        warnings.push(
          at(
            path,
            'sandbox.filesystem.allowRead',
            `${dropped.map((d) => JSON.stringify(d)).join(', ')}: a project's settings re-open reads only inside the project (${base}); ignored (put it in your user settings, ~/.claude/settings.json, to re-open it)`,
          ),
        );
    }
  }
  let mcp: McpSettings | undefined;
  try {
    mcp = mergeMcpSettings(undefined, raw, path);
    // A project's or local file's servers expand only what a Bash command gets, never a worker credential (src/mcp/config.ts).
    if (mcp && (scope === 'project' || scope === 'local'))
      mcp.servers = Object.fromEntries(
        Object.entries(mcp.servers).map(([n, server]) => [n, { ...server, projectScope: { passEnv: [] } }]),
      );
  } catch (err) {
    if (err instanceof McpConfigError) throw new SettingsError(err.message);
    throw err;
  }
  return { settings: s, warnings, notes, ...(mcp ? { mcp } : {}) };
}

/** The top-level keys durable-agent does not honour: a warning each, and one note for those of the terminal UI. */
function unhonouredKeys(path: string, raw: Record<string, unknown>): { warnings: string[]; notes: string[] } {
  const warnings: string[] = [];
  const notApplicable: string[] = [];
  for (const key of Object.keys(raw)) {
    if (TOP_KEYS.has(key)) continue;
    const k = unhonouredKey(key);
    if (k.kind === 'not-applicable') notApplicable.push(key);
    else if (k.kind === 'unsupported') {
      const env = raw[key];
      const named =
        key === 'env' && env && typeof env === 'object' ? ` (${Object.keys(env).join(', ') || 'empty'})` : '';
      warnings.push(
        at(
          path,
          `${key}${named}`,
          `is a Claude Code setting that durable-agent does not support; it is ignored: ${k.reason}`,
        ),
      );
    } else warnings.push(at(path, key, 'is not a known setting; it is ignored (misspelt?)'));
  }
  const notes =
    notApplicable.length > 0
      ? [
          `${path}: ${notApplicable.join(', ')} only shape${notApplicable.length === 1 ? 's' : ''} Claude Code's interactive terminal, login, updates or local housekeeping; durable-agent has none of these (ignored)`,
        ]
      : [];
  return { warnings, notes };
}

/** The scalar and list keys; a managed-only switch outside the managed settings is warned about and dropped from `s`. */
function checkScalars(path: string, s: SettingsFile, scope: SettingsScope, warnings: string[]): void {
  if (s.autoCompactEnabled !== undefined && typeof s.autoCompactEnabled !== 'boolean')
    throw new SettingsError(`${path}: autoCompactEnabled must be true or false`);
  for (const key of [
    'alwaysThinkingEnabled',
    'disableAllHooks',
    'allowManagedHooksOnly',
    'allowManagedPermissionRulesOnly',
  ] as const) {
    if (s[key] !== undefined && typeof s[key] !== 'boolean')
      throw new SettingsError(at(path, key, 'must be true or false'));
    if (s[key] !== undefined && MANAGED_ONLY_KEYS.has(key) && scope !== 'managed') {
      warnings.push(at(path, key, 'is honoured only in the managed settings; it is ignored here'));
      delete s[key];
    }
  }
  if (
    s.claudeMdExcludes !== undefined &&
    (!Array.isArray(s.claudeMdExcludes) || s.claudeMdExcludes.some((x) => typeof x !== 'string'))
  )
    throw new SettingsError(
      at(path, 'claudeMdExcludes', 'must be a list of strings (globs or absolute paths of CLAUDE.md files)'),
    );
  if (s.model !== undefined && (typeof s.model !== 'string' || s.model === ''))
    throw new SettingsError(at(path, 'model', 'must be a model name'));
  if (s.maxTokens !== undefined && !(Number.isInteger(s.maxTokens) && s.maxTokens > 0))
    throw new SettingsError(at(path, 'maxTokens', 'must be a positive integer'));
  const notify = notifySettingsProblems(s.notify);
  if (notify.length > 0) throw new SettingsError(`${path}: ${notify.join('; ')}`);
}

function checkHooks(path: string, hooks: HooksJson, warnings: string[]): void {
  if (!hooks || typeof hooks !== 'object' || Array.isArray(hooks))
    throw new SettingsError(at(path, 'hooks', 'must be an object of hook events'));
  // Unknown events and hook types fail here, at load, naming the file and key.
  try {
    normalizeHooksConfig({ hooks });
  } catch (err) {
    throw new SettingsError(`${path}: ${(err as Error).message}`);
  }
  for (const event of referenceOnlyHookEvents({ hooks })) {
    warnings.push(
      at(path, `hooks.${event}`, 'is a Claude Code hook event that durable-agent never fires; its hooks are ignored'),
    );
  }
  for (const [key, message] of hookConfigWarnings({ hooks })) warnings.push(at(path, key, message));
}

/** `permissions`: every rule parses; "auto" becomes "default" (with a warning) in `perms`. */
function checkPermissions(path: string, perms: Record<string, unknown>, warnings: string[]): void {
  if (!perms || typeof perms !== 'object' || Array.isArray(perms))
    throw new SettingsError(at(path, 'permissions', 'must be an object'));
  for (const key of Object.keys(perms)) {
    if (!PERMISSION_KEYS.has(key))
      warnings.push(at(path, `permissions.${key}`, 'is not a permissions setting durable-agent knows; it is ignored'));
  }
  if (perms.defaultMode === 'auto') {
    // The reference's classifier-approved mode: not implemented; the stricter default mode stands in.
    warnings.push(
      at(
        path,
        'permissions.defaultMode',
        '"auto" (a classifier approving calls) is a Claude Code mode durable-agent does not implement; the session runs in "default" mode: calls that need approval wait for one',
      ),
    );
    perms.defaultMode = 'default';
  }
  const mode = perms.defaultMode;
  if (mode !== undefined && !PERMISSION_MODES.includes(mode as PermissionMode)) {
    throw new SettingsError(
      `${path}: permissions.defaultMode "${String(mode)}" is not one of ${PERMISSION_MODES.join(', ')}`,
    );
  }
  for (const key of ['allow', 'ask', 'deny', 'additionalDirectories'] as const) {
    const v = perms[key];
    if (v !== undefined && (!Array.isArray(v) || v.some((x) => typeof x !== 'string')))
      throw new SettingsError(`${path}: permissions.${key} must be a list of strings`);
  }
  for (const key of ['allow', 'ask', 'deny'] as const) {
    ((perms[key] as string[] | undefined) ?? []).forEach((rule, i) => {
      try {
        parseRule(rule);
      } catch (err) {
        throw new SettingsError(at(path, `permissions.${key}[${i}]`, `is malformed: ${(err as Error).message}`));
      }
    });
  }
  const dbp = perms.disableBypassPermissionsMode;
  if (dbp !== undefined && dbp !== 'disable')
    throw new SettingsError(
      at(path, 'permissions.disableBypassPermissionsMode', `must be "disable" (got ${JSON.stringify(dbp)})`),
    );
}
