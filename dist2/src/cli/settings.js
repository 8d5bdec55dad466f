"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SettingsError = void 0;
exports.userSettingsPath = userSettingsPath;
exports.projectSettingsPath = projectSettingsPath;
exports.managedSettingsPath = managedSettingsPath;
exports.knownSettingsKeys = knownSettingsKeys;
exports.settingsDir = settingsDir;
exports.parseSettingsJson = parseSettingsJson;
exports.managedDropIns = managedDropIns;
exports.settingsSources = settingsSources;
exports.loadSettings = loadSettings;
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
const errors_1 = require("../engine/errors");
const config_1 = require("../hooks/config");
const node_fs_1 = require("node:fs");
const configRead_1 = require("../permissions/configRead");
const node_os_1 = require("node:os");
const claudeMd_1 = require("../memory/claudeMd");
const node_path_1 = require("node:path");
const rules_1 = require("../permissions/rules");
const settings_1 = require("../sandbox/settings");
const permissionTypes_1 = require("../tools/permissionTypes");
const config_2 = require("../mcp/config");
const settingsKeys_1 = require("./settingsKeys");
const jsonPosition_1 = require("../engine/jsonPosition");
class SettingsError extends errors_1.DurableAgentError {
    constructor(message) {
        super('SETTINGS', message);
    }
}
exports.SettingsError = SettingsError;
function userSettingsPath() {
    return (0, node_path_1.join)(process.env.DURABLE_AGENT_HOME ?? (0, node_path_1.join)((0, node_os_1.homedir)(), '.durable-agent'), 'settings.json');
}
function projectSettingsPath(cwd) {
    return (0, node_path_1.join)((0, node_path_1.resolve)(cwd), '.durable-agent', 'settings.json');
}
/** The managed settings file (`DURABLE_AGENT_MANAGED_SETTINGS` overrides the platform's path). */
function managedSettingsPath() {
    if (process.env.DURABLE_AGENT_MANAGED_SETTINGS)
        return (0, node_path_1.resolve)(process.env.DURABLE_AGENT_MANAGED_SETTINGS);
    if (process.platform === 'darwin')
        return '/Library/Application Support/ClaudeCode/managed-settings.json';
    if (process.platform === 'win32')
        return 'C:\\ProgramData\\ClaudeCode\\managed-settings.json';
    return '/etc/claude-code/managed-settings.json';
}
/** The keys this loader honours, per section. */
const TOP_KEYS = new Set([
    '$schema',
    'model',
    'claudeMdExcludes',
    'maxTokens',
    'permissions',
    'hooks',
    'sandbox',
    'autoCompactEnabled',
    'disableAllHooks',
    'allowManagedHooksOnly',
    'allowManagedPermissionRulesOnly',
    ...config_2.MCP_SETTINGS_KEYS,
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
function knownSettingsKeys() {
    return [
        ...TOP_KEYS,
        ...Object.keys(settingsKeys_1.UNSUPPORTED_KEYS),
        ...settingsKeys_1.NOT_APPLICABLE_KEYS,
        ...[...PERMISSION_KEYS].map((k) => `permissions.${k}`),
    ];
}
/** A directory named in settings: `~` and `~/…` in the home directory (as the reference), else against the working directory. */
function settingsDir(d, cwd) {
    if (d === '~' || d.startsWith('~/'))
        return (0, node_path_1.join)((0, node_os_1.homedir)(), d.slice(1));
    return (0, node_path_1.resolve)(cwd, d);
}
/** `<file>: <key> …` — the form of every settings message. */
function at(path, key, what) {
    return `${path}: ${key} ${what}`;
}
/**
 * A settings file's JSON. As the reference: a UTF-8 byte-order mark is skipped and an empty file
 * holds no settings. Unlike the reference (which skips a malformed file without a word in `-p`
 * mode), malformed JSON is an error naming the file, line and column.
 */
function parseSettingsJson(path, text) {
    if ((text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).trim() === '')
        return {};
    return (0, jsonPosition_1.parseConfigJson)(path, text, (m) => new SettingsError(m));
}
function readSettings(path, base, scope = 'user') {
    // A project's file must lie inside the project; none may lead to a credential file (src/permissions/configRead.ts).
    const read = (0, configRead_1.readConfigFileSync)(path, scope === 'project' || scope === 'local' ? { within: [base] } : {});
    if ('missing' in read)
        return undefined;
    if ('refused' in read)
        throw new SettingsError(`${path}: not read: ${read.refused}`);
    const parsed = parseSettingsJson(path, read.text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        throw new SettingsError(`${path} must hold a JSON object`);
    const raw = parsed;
    const { warnings, notes } = unhonouredKeys(path, raw);
    // Each check throws a SettingsError or adds its warnings, in this order (the first error is the one reported).
    const s = raw;
    checkScalars(path, s, scope, warnings);
    if (s.hooks !== undefined)
        checkHooks(path, s.hooks, warnings);
    const perms = s.permissions;
    if (perms !== undefined)
        checkPermissions(path, perms, warnings);
    if (s.sandbox !== undefined) {
        const problems = (0, settings_1.validateSandboxSettings)(s.sandbox);
        const errors = problems.filter((p) => p.level === 'error');
        if (errors.length > 0)
            throw new SettingsError(errors.map((p) => `${path}: ${p.message}`).join('\n'));
        warnings.push(...problems.filter((p) => p.level === 'warning').map((p) => `${path}: ${p.message}`));
        s.sandbox = (0, settings_1.resolveSandboxPaths)(s.sandbox, base);
    }
    let mcp;
    try {
        mcp = (0, config_2.mergeMcpSettings)(undefined, raw, path);
    }
    catch (err) {
        if (err instanceof config_2.McpConfigError)
            throw new SettingsError(err.message);
        throw err;
    }
    return { settings: s, warnings, notes, ...(mcp ? { mcp } : {}) };
}
/** The top-level keys durable-agent does not honour: a warning each, and one note for those of the terminal UI. */
function unhonouredKeys(path, raw) {
    const warnings = [];
    const notApplicable = [];
    for (const key of Object.keys(raw)) {
        if (TOP_KEYS.has(key))
            continue;
        const k = (0, settingsKeys_1.unhonouredKey)(key);
        if (k.kind === 'not-applicable')
            notApplicable.push(key);
        else if (k.kind === 'unsupported') {
            const env = raw[key];
            const named = key === 'env' && env && typeof env === 'object' ? ` (${Object.keys(env).join(', ') || 'empty'})` : '';
            warnings.push(at(path, `${key}${named}`, `is a Claude Code setting that durable-agent does not support; it is ignored: ${k.reason}`));
        }
        else
            warnings.push(at(path, key, 'is not a known setting; it is ignored (misspelt?)'));
    }
    const notes = notApplicable.length > 0
        ? [
            `${path}: ${notApplicable.join(', ')} only shape${notApplicable.length === 1 ? 's' : ''} Claude Code's interactive terminal, login, updates or local housekeeping; durable-agent has none of these (ignored)`,
        ]
        : [];
    return { warnings, notes };
}
/** The scalar and list keys; a managed-only switch outside the managed settings is warned about and dropped from `s`. */
function checkScalars(path, s, scope, warnings) {
    if (s.autoCompactEnabled !== undefined && typeof s.autoCompactEnabled !== 'boolean')
        throw new SettingsError(`${path}: autoCompactEnabled must be true or false`);
    for (const key of ['disableAllHooks', 'allowManagedHooksOnly', 'allowManagedPermissionRulesOnly']) {
        if (s[key] !== undefined && typeof s[key] !== 'boolean')
            throw new SettingsError(at(path, key, 'must be true or false'));
        if (s[key] !== undefined && MANAGED_ONLY_KEYS.has(key) && scope !== 'managed') {
            warnings.push(at(path, key, 'is honoured only in the managed settings; it is ignored here'));
            delete s[key];
        }
    }
    if (s.claudeMdExcludes !== undefined &&
        (!Array.isArray(s.claudeMdExcludes) || s.claudeMdExcludes.some((x) => typeof x !== 'string')))
        throw new SettingsError(at(path, 'claudeMdExcludes', 'must be a list of strings (globs or absolute paths of CLAUDE.md files)'));
    if (s.model !== undefined && (typeof s.model !== 'string' || s.model === ''))
        throw new SettingsError(at(path, 'model', 'must be a model name'));
    if (s.maxTokens !== undefined && !(Number.isInteger(s.maxTokens) && s.maxTokens > 0))
        throw new SettingsError(at(path, 'maxTokens', 'must be a positive integer'));
}
function checkHooks(path, hooks, warnings) {
    if (!hooks || typeof hooks !== 'object' || Array.isArray(hooks))
        throw new SettingsError(at(path, 'hooks', 'must be an object of hook events'));
    // Unknown events and hook types fail here, at load, naming the file and key.
    try {
        (0, config_1.normalizeHooksConfig)({ hooks });
    }
    catch (err) {
        throw new SettingsError(`${path}: ${err.message}`);
    }
    for (const event of (0, config_1.referenceOnlyHookEvents)({ hooks })) {
        warnings.push(at(path, `hooks.${event}`, 'is a Claude Code hook event that durable-agent never fires; its hooks are ignored'));
    }
    for (const [key, message] of (0, config_1.hookConfigWarnings)({ hooks }))
        warnings.push(at(path, key, message));
}
/** `permissions`: every rule parses; "auto" becomes "default" (with a warning) in `perms`. */
function checkPermissions(path, perms, warnings) {
    if (!perms || typeof perms !== 'object' || Array.isArray(perms))
        throw new SettingsError(at(path, 'permissions', 'must be an object'));
    for (const key of Object.keys(perms)) {
        if (!PERMISSION_KEYS.has(key))
            warnings.push(at(path, `permissions.${key}`, 'is not a permissions setting durable-agent knows; it is ignored'));
    }
    if (perms.defaultMode === 'auto') {
        // The reference's classifier-approved mode: not implemented; the stricter default mode stands in.
        warnings.push(at(path, 'permissions.defaultMode', '"auto" (a classifier approving calls) is a Claude Code mode durable-agent does not implement; the session runs in "default" mode: calls that need approval wait for one'));
        perms.defaultMode = 'default';
    }
    const mode = perms.defaultMode;
    if (mode !== undefined && !permissionTypes_1.PERMISSION_MODES.includes(mode)) {
        throw new SettingsError(`${path}: permissions.defaultMode "${String(mode)}" is not one of ${permissionTypes_1.PERMISSION_MODES.join(', ')}`);
    }
    for (const key of ['allow', 'ask', 'deny', 'additionalDirectories']) {
        const v = perms[key];
        if (v !== undefined && (!Array.isArray(v) || v.some((x) => typeof x !== 'string')))
            throw new SettingsError(`${path}: permissions.${key} must be a list of strings`);
    }
    for (const key of ['allow', 'ask', 'deny']) {
        (perms[key] ?? []).forEach((rule, i) => {
            try {
                (0, rules_1.parseRule)(rule);
            }
            catch (err) {
                throw new SettingsError(at(path, `permissions.${key}[${i}]`, `is malformed: ${err.message}`));
            }
        });
    }
    const dbp = perms.disableBypassPermissionsMode;
    if (dbp !== undefined && dbp !== 'disable')
        throw new SettingsError(at(path, 'permissions.disableBypassPermissionsMode', `must be "disable" (got ${JSON.stringify(dbp)})`));
}
function mergeHooks(a, b) {
    if (!a)
        return b;
    if (!b)
        return a;
    const out = { ...a };
    for (const [event, list] of Object.entries(b))
        out[event] = [...(out[event] ?? []), ...list];
    return out;
}
/**
 * The managed drop-in files, as the reference reads them after managed-settings.json:
 * `managed-settings.d/*.json` beside it, in name order, dot files skipped.
 */
function managedDropIns(dir) {
    const d = (0, node_path_1.join)(dir, 'managed-settings.d');
    try {
        return (0, node_fs_1.readdirSync)(d, { withFileTypes: true })
            .filter((e) => (e.isFile() || e.isSymbolicLink()) && e.name.endsWith('.json') && !e.name.startsWith('.'))
            .map((e) => e.name)
            .sort()
            .map((n) => (0, node_path_1.join)(d, n));
    }
    catch {
        return [];
    }
}
/**
 * The files read, lowest precedence first, each with its scope and the directory its relative
 * paths are resolved against (the project root for project files, the file's directory otherwise).
 */
function settingsSources(cwd) {
    const root = (0, node_path_1.resolve)(cwd);
    const claudeUser = (0, node_path_1.join)((0, claudeMd_1.claudeConfigDir)(), 'settings.json');
    const user = userSettingsPath();
    const managed = managedSettingsPath();
    return [
        { path: claudeUser, base: (0, node_path_1.dirname)(claudeUser), scope: 'user' },
        { path: user, base: (0, node_path_1.dirname)(user), scope: 'user' },
        { path: (0, node_path_1.join)(root, '.claude', 'settings.json'), base: root, scope: 'project' },
        { path: projectSettingsPath(cwd), base: root, scope: 'project' },
        { path: (0, node_path_1.join)(root, '.claude', 'settings.local.json'), base: root, scope: 'local' },
        { path: managed, base: (0, node_path_1.dirname)(managed), scope: 'managed' },
        ...managedDropIns((0, node_path_1.dirname)(managed)).map((path) => ({ path, base: (0, node_path_1.dirname)(managed), scope: 'managed' })),
    ];
}
function loadSettings(cwd, paths) {
    const sources = paths
        ? paths.map((p) => ({
            path: p,
            base: p === projectSettingsPath(cwd) ? (0, node_path_1.resolve)(cwd) : (0, node_path_1.dirname)(p),
            scope: 'user',
        }))
        : settingsSources(cwd);
    const eff = {
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
    const state = { managedHooksOnly: false, managedRules: { allow: [], ask: [], deny: [] } };
    for (const { path, base, scope } of sources) {
        const loaded = readSettings(path, base, scope);
        if (!loaded)
            continue;
        if (scope === 'managed')
            applyManaged(eff, state, loaded.settings, path);
        applyFile(eff, state, loaded, path, scope, cwd);
    }
    if (eff.managedRulesOnly) {
        eff.allow = state.managedRules.allow;
        eff.ask = state.managedRules.ask;
        eff.deny = state.managedRules.deny;
    }
    const managedHooks = state.managedHooks;
    if (state.managedHooksOnly) {
        if (managedHooks)
            eff.hooks = managedHooks;
        else
            delete eff.hooks;
    }
    // disableAllHooks outside the managed settings cannot switch off the managed hooks (as the reference).
    const disableAllHooks = state.disableAllHooks;
    if (disableAllHooks === 'managed' || (disableAllHooks && !managedHooks))
        delete eff.hooks;
    else if (disableAllHooks && managedHooks)
        eff.hooks = managedHooks;
    return eff;
}
/** A managed file: its scalars beat the command line; its rules and hooks are kept aside for the managed-only switches. */
function applyManaged(eff, state, s, path) {
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
    if (s.allowManagedPermissionRulesOnly)
        eff.managedRulesOnly = true;
    if (s.allowManagedHooksOnly)
        state.managedHooksOnly = true;
}
/** Any file, over the ones below it: lists are concatenated, a scalar it sets wins. */
function applyFile(eff, state, loaded, path, scope, cwd) {
    const s = loaded.settings;
    if (s.disableAllHooks !== undefined)
        state.disableAllHooks = s.disableAllHooks ? scope : undefined;
    eff.sources.push(path);
    eff.warnings.push(...loaded.warnings);
    eff.notes.push(...loaded.notes);
    for (const g of s.claudeMdExcludes ?? [])
        if (!eff.claudeMdExcludes.includes(g))
            eff.claudeMdExcludes.push(g);
    if (s.model !== undefined)
        eff.model = s.model;
    if (s.maxTokens !== undefined)
        eff.maxTokens = s.maxTokens;
    eff.allow.push(...(s.permissions?.allow ?? []));
    eff.ask.push(...(s.permissions?.ask ?? []));
    eff.deny.push(...(s.permissions?.deny ?? []));
    for (const d of s.permissions?.additionalDirectories ?? []) {
        const dir = settingsDir(d, cwd);
        if (!(0, node_fs_1.existsSync)(dir))
            eff.warnings.push(at(path, 'permissions.additionalDirectories', `${JSON.stringify(d)}: ${dir} does not exist; it is ignored`));
        else if (!eff.additionalDirectories.includes(dir))
            eff.additionalDirectories.push(dir);
    }
    if (s.permissions?.defaultMode)
        eff.mode = s.permissions.defaultMode;
    if (s.permissions?.disableBypassPermissionsMode === 'disable') {
        eff.disableBypassPermissionsMode = true;
        eff.bypassDisabledBy = path;
    }
    if (s.autoCompactEnabled !== undefined)
        eff.autoCompactEnabled = s.autoCompactEnabled;
    const hooks = mergeHooks(eff.hooks, s.hooks);
    if (hooks)
        eff.hooks = hooks;
    const sandbox = (0, settings_1.mergeSandboxSettings)(eff.sandbox, s.sandbox);
    if (sandbox)
        eff.sandbox = sandbox;
    if (loaded.mcp)
        eff.mcp = mergeMcp(eff.mcp ?? { servers: {}, origins: {}, approval: {} }, loaded.mcp);
}
/** MCP settings of a file over those below it: servers by name, approval lists concatenated. */
function mergeMcp(m, next) {
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
//# sourceMappingURL=settings.js.map