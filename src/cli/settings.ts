// Settings files in the reference's format: `~/.durable-agent/settings.json` (user) and
// `<cwd>/.durable-agent/settings.json` (project). Lists are concatenated, scalars overridden
// (project over user); command-line flags override both.
//
// Loud configuration (invariant 12): a key that is malformed, or that would change what a session
// may do and is not implemented, is an error naming the file and the key; an unknown or unsupported
// key that changes nothing about safety is a warning naming them. Nothing is silently ignored.
// To read more files (e.g. `.claude/settings.json`), add them to `settingsSources`.
import { normalizeHooksConfig, referenceOnlyHookEvents } from '../hooks/config';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseRule } from '../permissions/rules';
import { mergeSandboxSettings, resolveSandboxPaths, validateSandboxSettings, type SandboxSettings } from '../sandbox/settings';
import { PERMISSION_MODES, type PermissionMode } from '../tools/permissionTypes';
import type { HooksJson } from '../workflows/definitions';
import { MCP_SETTINGS_KEYS, McpConfigError, mergeMcpSettings, type McpSettings } from '../mcp/config';

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
}

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
  /** `mcpServers` and the `.mcp.json` approval keys (src/mcp/config.ts). */
  mcp?: McpSettings;
  autoCompactEnabled?: boolean;
  sources: string[];
  /** `<file>: <key>: <what>` for keys that were not used; show them to the user. */
  warnings: string[];
}

export class SettingsError extends Error {}

export function userSettingsPath(): string {
  return join(process.env.DURABLE_AGENT_HOME ?? join(homedir(), '.durable-agent'), 'settings.json');
}

export function projectSettingsPath(cwd: string): string {
  return join(resolve(cwd), '.durable-agent', 'settings.json');
}

/** The keys this loader honours, per section. */
const TOP_KEYS = new Set(['$schema', 'model', 'maxTokens', 'permissions', 'hooks', 'sandbox', 'autoCompactEnabled', ...MCP_SETTINGS_KEYS]);
const PERMISSION_KEYS = new Set(['allow', 'ask', 'deny', 'defaultMode', 'additionalDirectories', 'disableBypassPermissionsMode']);
/** Keys of the reference's settings.json that durable-agent does not implement (a warning each). */
const REFERENCE_ONLY_KEYS = new Set([
  'env', 'apiKeyHelper', 'awsAuthRefresh', 'awsCredentialExport', 'cleanupPeriodDays', 'companyAnnouncements',
  'includeCoAuthoredBy', 'includeGitInstructions', 'attribution', 'disableAllHooks', 'allowManagedHooksOnly',
  'allowManagedPermissionRulesOnly', 'availableModels', 'otelHeadersHelper', 'statusLine', 'outputStyle',
  'forceLoginMethod', 'forceLoginOrgUUID', 'spinnerTipsEnabled', 'alwaysThinkingEnabled',
  'language', 'respectGitignore', 'fileSuggestion', 'plansDirectory', 'autoUpdatesChannel', 'enabledPlugins',
  'extraKnownMarketplaces', 'strictKnownMarketplaces', 'theme', 'verbose', 'cleanupPeriod', 'skipWebFetchPreflight',
]);

/** `<file>: <key> …` — the form of every settings message. */
function at(path: string, key: string, what: string): string {
  return `${path}: ${key} ${what}`;
}

interface Loaded {
  settings: SettingsFile;
  warnings: string[];
  mcp?: McpSettings;
}

function readSettings(path: string, base: string): Loaded | undefined {
  if (!existsSync(path)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new SettingsError(`${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new SettingsError(`${path} must hold a JSON object`);
  const raw = parsed as Record<string, unknown>;
  const warnings: string[] = [];
  for (const key of Object.keys(raw)) {
    if (TOP_KEYS.has(key)) continue;
    warnings.push(
      REFERENCE_ONLY_KEYS.has(key)
        ? at(path, key, 'is a Claude Code setting that durable-agent does not support; it is ignored')
        : at(path, key, 'is not a known setting; it is ignored (misspelt?)'),
    );
  }
  const s = raw as SettingsFile;
  if (s.autoCompactEnabled !== undefined && typeof s.autoCompactEnabled !== 'boolean') throw new SettingsError(`${path}: autoCompactEnabled must be true or false`);
  if (s.model !== undefined && (typeof s.model !== 'string' || s.model === '')) throw new SettingsError(at(path, 'model', 'must be a model name'));
  if (s.maxTokens !== undefined && !(Number.isInteger(s.maxTokens) && s.maxTokens > 0)) throw new SettingsError(at(path, 'maxTokens', 'must be a positive integer'));
  if (s.hooks !== undefined && (!s.hooks || typeof s.hooks !== 'object' || Array.isArray(s.hooks))) throw new SettingsError(at(path, 'hooks', 'must be an object of hook events'));
  if (s.hooks !== undefined) {
    // Unknown events and hook types fail here, at load, naming the file and key.
    try {
      normalizeHooksConfig({ hooks: s.hooks });
    } catch (err) {
      throw new SettingsError(`${path}: ${(err as Error).message}`);
    }
    for (const event of referenceOnlyHookEvents({ hooks: s.hooks })) {
      warnings.push(at(path, `hooks.${event}`, 'is a Claude Code hook event that durable-agent never fires; its hooks are ignored'));
    }
  }
  const perms = s.permissions as Record<string, unknown> | undefined;
  if (perms !== undefined) {
    if (!perms || typeof perms !== 'object' || Array.isArray(perms)) throw new SettingsError(at(path, 'permissions', 'must be an object'));
    for (const key of Object.keys(perms)) {
      if (!PERMISSION_KEYS.has(key)) warnings.push(at(path, `permissions.${key}`, 'is not a permissions setting durable-agent knows; it is ignored'));
    }
    const mode = perms.defaultMode;
    if (mode !== undefined && !PERMISSION_MODES.includes(mode as PermissionMode)) {
      throw new SettingsError(`${path}: permissions.defaultMode "${String(mode)}" is not one of ${PERMISSION_MODES.join(', ')}`);
    }
    for (const key of ['allow', 'ask', 'deny', 'additionalDirectories'] as const) {
      const v = perms[key];
      if (v !== undefined && (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))) throw new SettingsError(`${path}: permissions.${key} must be a list of strings`);
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
    if (dbp !== undefined && dbp !== 'disable') throw new SettingsError(at(path, 'permissions.disableBypassPermissionsMode', `must be "disable" (got ${JSON.stringify(dbp)})`));
  }
  if (s.sandbox !== undefined) {
    const problems = validateSandboxSettings(s.sandbox);
    const errors = problems.filter((p) => p.level === 'error');
    if (errors.length > 0) throw new SettingsError(errors.map((p) => `${path}: ${p.message}`).join('\n'));
    warnings.push(...problems.filter((p) => p.level === 'warning').map((p) => `${path}: ${p.message}`));
    s.sandbox = resolveSandboxPaths(s.sandbox, base);
  }
  let mcp: McpSettings | undefined;
  try {
    mcp = mergeMcpSettings(undefined, raw, path);
  } catch (err) {
    if (err instanceof McpConfigError) throw new SettingsError(err.message);
    throw err;
  }
  return { settings: s, warnings, ...(mcp ? { mcp } : {}) };
}

function mergeHooks(a: HooksJson | undefined, b: HooksJson | undefined): HooksJson | undefined {
  if (!a) return b;
  if (!b) return a;
  const out: HooksJson = { ...a };
  for (const [event, list] of Object.entries(b)) out[event] = [...(out[event] ?? []), ...list];
  return out;
}

/**
 * The files read, lowest precedence first, each with the directory its relative paths are
 * resolved against (the project root for project files, the file's directory for user files).
 */
export function settingsSources(cwd: string): Array<{ path: string; base: string }> {
  const user = userSettingsPath();
  return [
    { path: user, base: dirname(user) },
    { path: projectSettingsPath(cwd), base: resolve(cwd) },
  ];
}

export function loadSettings(cwd: string, paths?: string[]): EffectiveSettings {
  const sources = paths ? paths.map((p) => ({ path: p, base: p === projectSettingsPath(cwd) ? resolve(cwd) : dirname(p) })) : settingsSources(cwd);
  const eff: EffectiveSettings = { allow: [], ask: [], deny: [], additionalDirectories: [], disableBypassPermissionsMode: false, sources: [], warnings: [] };
  for (const { path, base } of sources) {
    const loaded = readSettings(path, base);
    if (!loaded) continue;
    const s = loaded.settings;
    eff.sources.push(path);
    eff.warnings.push(...loaded.warnings);
    if (s.model !== undefined) eff.model = s.model;
    if (s.maxTokens !== undefined) eff.maxTokens = s.maxTokens;
    eff.allow.push(...(s.permissions?.allow ?? []));
    eff.ask.push(...(s.permissions?.ask ?? []));
    eff.deny.push(...(s.permissions?.deny ?? []));
    eff.additionalDirectories.push(...(s.permissions?.additionalDirectories ?? []).map((d) => resolve(cwd, d)));
    if (s.permissions?.defaultMode) eff.mode = s.permissions.defaultMode;
    if (s.permissions?.disableBypassPermissionsMode === 'disable') eff.disableBypassPermissionsMode = true;
    if (s.autoCompactEnabled !== undefined) eff.autoCompactEnabled = s.autoCompactEnabled;
    const hooks = mergeHooks(eff.hooks, s.hooks);
    if (hooks) eff.hooks = hooks;
    const sandbox = mergeSandboxSettings(eff.sandbox, s.sandbox);
    if (sandbox) eff.sandbox = sandbox;
    if (loaded.mcp) {
      const m = eff.mcp ?? { servers: {}, origins: {}, approval: {} };
      eff.mcp = {
        servers: { ...m.servers, ...loaded.mcp.servers },
        origins: { ...m.origins, ...loaded.mcp.origins },
        approval: {
          ...m.approval,
          ...(loaded.mcp.approval.enableAllProjectMcpServers !== undefined ? { enableAllProjectMcpServers: loaded.mcp.approval.enableAllProjectMcpServers } : {}),
          enabledMcpjsonServers: [...(m.approval.enabledMcpjsonServers ?? []), ...(loaded.mcp.approval.enabledMcpjsonServers ?? [])],
          disabledMcpjsonServers: [...(m.approval.disabledMcpjsonServers ?? []), ...(loaded.mcp.approval.disabledMcpjsonServers ?? [])],
          ...(m.approval.allowedMcpServers || loaded.mcp.approval.allowedMcpServers
            ? { allowedMcpServers: [...(m.approval.allowedMcpServers ?? []), ...(loaded.mcp.approval.allowedMcpServers ?? [])] }
            : {}),
          ...(m.approval.deniedMcpServers || loaded.mcp.approval.deniedMcpServers
            ? { deniedMcpServers: [...(m.approval.deniedMcpServers ?? []), ...(loaded.mcp.approval.deniedMcpServers ?? [])] }
            : {}),
        },
      };
    }
  }
  return eff;
}
