// Settings files where Claude Code users keep them, with the reference's precedence (lowest first):
//   user     ~/.claude/settings.json (CLAUDE_CONFIG_DIR), then ~/.durable-agent/settings.json
//   project  .claude/settings.json (shared), then .durable-agent/settings.json
//   local    .claude/settings.local.json (personal, not checked in)
//   flags    the command line (applied by the caller over the merged files)
//   managed  /etc/claude-code/managed-settings.json, then managed-settings.d/*.json beside it (Linux;
//            env DURABLE_AGENT_MANAGED_SETTINGS):
//            nothing overrides it, not even a flag.
// A durable-agent file sits just above the Claude Code file of its own scope. Lists (rules,
// directories, hooks) are concatenated over every file; a scalar comes from the highest file that
// sets it. docs/settings.md lists every reference key and what durable-agent does with it.
//
// Loud configuration (invariant 12): a key that is malformed, or that would change what a session
// may do and is not implemented, is an error naming the file and the key; an unknown or unsupported
// key that changes nothing about safety is a warning naming them. Nothing is silently ignored.
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { claudeConfigDir } from '../claudeMd/claudeMd';
import { dirname, join, resolve } from 'node:path';
import { mergeSandboxSettings } from '../sandbox/settings';
import type { HooksJson } from '../temporal/workflows/definitions';
import type { McpSettings } from '../mcp/config';
import {
  type EffectiveSettings,
  type Loaded,
  type SettingsFile,
  type SettingsScope,
  at,
  readSettings,
} from './settingsFile';

export {
  knownSettingsKeys,
  parseSettingsJson,
  SettingsError,
  type EffectiveSettings,
  type SettingsFile,
  type SettingsScope,
} from './settingsFile';

export function userSettingsPath(): string {
  return join(process.env.DURABLE_AGENT_HOME ?? join(homedir(), '.durable-agent'), 'settings.json');
}

export function projectSettingsPath(cwd: string): string {
  return join(resolve(cwd), '.durable-agent', 'settings.json');
}

/** The managed settings file (`DURABLE_AGENT_MANAGED_SETTINGS` overrides the platform's path). */
export function managedSettingsPath(): string {
  if (process.env.DURABLE_AGENT_MANAGED_SETTINGS) return resolve(process.env.DURABLE_AGENT_MANAGED_SETTINGS);
  if (process.platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-settings.json';
  if (process.platform === 'win32') return 'C:\\ProgramData\\ClaudeCode\\managed-settings.json';
  return '/etc/claude-code/managed-settings.json';
}

/** A directory named in settings: `~` and `~/…` in the home directory (as the reference), else against the working directory. */
export function settingsDir(d: string, cwd: string): string {
  if (d === '~' || d.startsWith('~/')) return join(homedir(), d.slice(1));
  return resolve(cwd, d);
}

function mergeHooks(a: HooksJson | undefined, b: HooksJson | undefined): HooksJson | undefined {
  if (!a) return b;
  if (!b) return a;
  const out: HooksJson = { ...a };
  for (const [event, list] of Object.entries(b)) out[event] = [...(out[event] ?? []), ...list];
  return out;
}

/**
 * The managed drop-in files, as the reference reads them after managed-settings.json:
 * `managed-settings.d/*.json` beside it, in name order, dot files skipped.
 */
export function managedDropIns(dir: string): string[] {
  const d = join(dir, 'managed-settings.d');
  try {
    return readdirSync(d, { withFileTypes: true })
      .filter((e) => (e.isFile() || e.isSymbolicLink()) && e.name.endsWith('.json') && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort()
      .map((n) => join(d, n));
  } catch {
    return [];
  }
}

/**
 * The files read, lowest precedence first, each with its scope and the directory its relative
 * paths are resolved against (the project root for project files, the file's directory otherwise).
 */
export function settingsSources(cwd: string): Array<{ path: string; base: string; scope: SettingsScope }> {
  const root = resolve(cwd);
  const claudeUser = join(claudeConfigDir(), 'settings.json');
  const user = userSettingsPath();
  const managed = managedSettingsPath();
  return [
    { path: claudeUser, base: dirname(claudeUser), scope: 'user' },
    { path: user, base: dirname(user), scope: 'user' },
    { path: join(root, '.claude', 'settings.json'), base: root, scope: 'project' },
    { path: projectSettingsPath(cwd), base: root, scope: 'project' },
    { path: join(root, '.claude', 'settings.local.json'), base: root, scope: 'local' },
    { path: managed, base: dirname(managed), scope: 'managed' },
    ...managedDropIns(dirname(managed)).map((path) => ({ path, base: dirname(managed), scope: 'managed' as const })),
  ];
}

/** What loadSettings keeps aside while it reads the files: the managed settings' own rules and hooks, the hook switches. */
interface HookAndRuleState {
  disableAllHooks?: SettingsScope;
  managedHooksOnly: boolean;
  managedRules: { allow: string[]; ask: string[]; deny: string[] };
  managedHooks?: HooksJson;
}

export function loadSettings(cwd: string, paths?: string[]): EffectiveSettings {
  const sources = paths
    ? paths.map((p) => ({
        path: p,
        base: p === projectSettingsPath(cwd) ? resolve(cwd) : dirname(p),
        scope: 'user' as SettingsScope,
      }))
    : settingsSources(cwd);
  const eff: EffectiveSettings = {
    allow: [],
    ask: [],
    deny: [],
    additionalDirectories: [],
    disableBypassPermissionsMode: false,
    sources: [],
    warnings: [],
    notes: [],
    claudeMdExcludes: [],
    managed: {},
    managedRulesOnly: false,
  };
  const state: HookAndRuleState = { managedHooksOnly: false, managedRules: { allow: [], ask: [], deny: [] } };
  for (const { path, base, scope } of sources) {
    const loaded = readSettings(path, base, scope);
    if (!loaded) continue;
    if (scope === 'managed') applyManaged(eff, state, loaded.settings, path);
    applyFile(eff, state, loaded, path, scope, cwd);
  }
  if (eff.managedRulesOnly) {
    eff.allow = state.managedRules.allow;
    eff.ask = state.managedRules.ask;
    eff.deny = state.managedRules.deny;
  }
  const managedHooks = state.managedHooks;
  if (state.managedHooksOnly) {
    if (managedHooks) eff.hooks = managedHooks;
    else delete eff.hooks;
  }
  // disableAllHooks outside the managed settings cannot switch off the managed hooks (as the reference).
  const disableAllHooks = state.disableAllHooks;
  if (disableAllHooks === 'managed' || (disableAllHooks && !managedHooks)) delete eff.hooks;
  else if (disableAllHooks && managedHooks) eff.hooks = managedHooks;
  return eff;
}

/** A managed file: its scalars beat the command line; its rules and hooks are kept aside for the managed-only switches. */
function applyManaged(eff: EffectiveSettings, state: HookAndRuleState, s: SettingsFile, path: string): void {
  // managed-settings.json, then managed-settings.d/*.json: a later file's scalar wins (path: the file that set one).
  const set = s.model !== undefined || s.maxTokens !== undefined || s.permissions?.defaultMode !== undefined;
  eff.managed = {
    ...eff.managed,
    ...(s.model !== undefined ? { model: s.model } : {}),
    ...(s.maxTokens !== undefined ? { maxTokens: s.maxTokens } : {}),
    ...(s.permissions?.defaultMode ? { mode: s.permissions.defaultMode } : {}),
    ...(set || !eff.managed.path ? { path } : {}),
  };
  state.managedRules.allow.push(...(s.permissions?.allow ?? []));
  state.managedRules.ask.push(...(s.permissions?.ask ?? []));
  state.managedRules.deny.push(...(s.permissions?.deny ?? []));
  state.managedHooks = mergeHooks(state.managedHooks, s.hooks);
  if (s.allowManagedPermissionRulesOnly) eff.managedRulesOnly = true;
  if (s.allowManagedHooksOnly) state.managedHooksOnly = true;
}

/**
 * `notify` as a file of this scope may set it: the webhook receives the worker's
 * DURABLE_AGENT_NOTIFY_AUTH_HEADER, so only the user's own files (and managed ones, the flag and
 * the environment) may name it; a project's or a local file's `notify.webhook` (a repository's
 * committed settings) is ignored with a warning (issue 30 round e). Its other keys count.
 */
function notifyOfScope(
  notify: NonNullable<SettingsFile['notify']>,
  scope: SettingsScope,
  path: string,
  warnings: string[],
): NonNullable<SettingsFile['notify']> {
  if ((scope !== 'project' && scope !== 'local') || notify.webhook === undefined) return notify;
  warnings.push(
    at(
      path,
      'notify.webhook',
      "is ignored: a project's settings cannot name the webhook (it would receive the worker's notify auth header); set it in your user settings, with --notify-webhook or DURABLE_AGENT_NOTIFY_WEBHOOK",
    ),
  );
  const { webhook: _ignored, ...rest } = notify;
  return rest;
}

/** Any file, over the ones below it: lists are concatenated, a scalar it sets wins. */
function applyFile(
  eff: EffectiveSettings,
  state: HookAndRuleState,
  loaded: Loaded,
  path: string,
  scope: SettingsScope,
  cwd: string,
): void {
  const s = loaded.settings;
  if (s.disableAllHooks !== undefined) state.disableAllHooks = s.disableAllHooks ? scope : undefined;
  eff.sources.push(path);
  eff.warnings.push(...loaded.warnings);
  eff.notes.push(...loaded.notes);
  for (const g of s.claudeMdExcludes ?? []) if (!eff.claudeMdExcludes.includes(g)) eff.claudeMdExcludes.push(g);
  if (s.model !== undefined) eff.model = s.model;
  if (s.maxTokens !== undefined) eff.maxTokens = s.maxTokens;
  if (s.notify !== undefined) eff.notify = { ...eff.notify, ...notifyOfScope(s.notify, scope, path, eff.warnings) };
  eff.allow.push(...(s.permissions?.allow ?? []));
  eff.ask.push(...(s.permissions?.ask ?? []));
  eff.deny.push(...(s.permissions?.deny ?? []));
  for (const d of s.permissions?.additionalDirectories ?? []) {
    const dir = settingsDir(d, cwd);
    if (!existsSync(dir))
      eff.warnings.push(
        at(path, 'permissions.additionalDirectories', `${JSON.stringify(d)}: ${dir} does not exist; it is ignored`),
      );
    else if (!eff.additionalDirectories.includes(dir)) eff.additionalDirectories.push(dir);
  }
  if (s.permissions?.defaultMode) eff.mode = s.permissions.defaultMode;
  if (s.permissions?.disableBypassPermissionsMode === 'disable') {
    eff.disableBypassPermissionsMode = true;
    eff.bypassDisabledBy = path;
  }
  if (s.autoCompactEnabled !== undefined) eff.autoCompactEnabled = s.autoCompactEnabled;
  if (s.alwaysThinkingEnabled !== undefined) eff.alwaysThinkingEnabled = s.alwaysThinkingEnabled;
  const hooks = mergeHooks(eff.hooks, s.hooks);
  if (hooks) eff.hooks = hooks;
  if (scope !== 'project' && scope !== 'local' && s.sandbox?.passEnv)
    eff.personPassEnv = [...(eff.personPassEnv ?? []), ...s.sandbox.passEnv];
  const sandbox = mergeSandboxSettings(eff.sandbox, s.sandbox);
  if (sandbox) eff.sandbox = sandbox;
  if (loaded.mcp) eff.mcp = mergeMcp(eff.mcp ?? { servers: {}, origins: {}, approval: {} }, loaded.mcp);
}

/** MCP settings of a file over those below it: servers by name, approval lists concatenated. */
function mergeMcp(m: McpSettings, next: McpSettings): McpSettings {
  return {
    servers: { ...m.servers, ...next.servers },
    origins: { ...m.origins, ...next.origins },
    approval: {
      ...m.approval,
      ...(next.approval.enableAllProjectMcpServers !== undefined
        ? { enableAllProjectMcpServers: next.approval.enableAllProjectMcpServers }
        : {}),
      enabledMcpjsonServers: [
        ...(m.approval.enabledMcpjsonServers ?? []),
        ...(next.approval.enabledMcpjsonServers ?? []),
      ],
      disabledMcpjsonServers: [
        ...(m.approval.disabledMcpjsonServers ?? []),
        ...(next.approval.disabledMcpjsonServers ?? []),
      ],
      ...(m.approval.allowedMcpServers || next.approval.allowedMcpServers
        ? { allowedMcpServers: [...(m.approval.allowedMcpServers ?? []), ...(next.approval.allowedMcpServers ?? [])] }
        : {}),
      ...(m.approval.deniedMcpServers || next.approval.deniedMcpServers
        ? { deniedMcpServers: [...(m.approval.deniedMcpServers ?? []), ...(next.approval.deniedMcpServers ?? [])] }
        : {}),
    },
  };
}
