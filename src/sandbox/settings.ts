// The reference's `sandbox` settings object (Claude Code's settings.json `sandbox` key), validated
// key by key: every key is either honoured with the reference's meaning or rejected loudly
// (invariant 12). Pure: no I/O, so the session input can carry the result.
import * as path from 'node:path';
import { PASS_ENV_ENTRY } from '../hostProcess/environment';
import type { ProjectRepository } from '../core/context';

export type { ProjectRepository } from '../core/context';

export interface SandboxNetworkSettings {
  allowedDomains?: string[];
  deniedDomains?: string[];
  allowUnixSockets?: string[];
  allowAllUnixSockets?: boolean;
  allowLocalBinding?: boolean;
  allowMachLookup?: string[];
  httpProxyPort?: number;
  socksProxyPort?: number;
  strictAllowlist?: boolean;
}

export interface SandboxFilesystemSettings {
  allowWrite?: string[];
  denyWrite?: string[];
  denyRead?: string[];
  allowRead?: string[];
  disabled?: boolean;
}

/** `sandbox` as the reference documents it (the keys durable-agent honours). */
export interface SandboxSettings {
  /** Default here: true (the reference's default is false; see README "Security model"). */
  enabled?: boolean;
  failIfUnavailable?: boolean;
  autoAllowBashIfSandboxed?: boolean;
  excludedCommands?: string[];
  allowUnsandboxedCommands?: boolean;
  enabledPlatforms?: string[];
  ignoreViolations?: Record<string, string[]>;
  enableWeakerNestedSandbox?: boolean;
  enableWeakerNetworkIsolation?: boolean;
  allowNestedUserNamespaces?: boolean;
  allowAppleEvents?: boolean;
  bwrapPath?: string;
  socatPath?: string;
  ripgrep?: { command: string; args?: string[] };
  network?: SandboxNetworkSettings;
  filesystem?: SandboxFilesystemSettings;
  /**
   * durable-agent only: names (or `PREFIX_*`) of the worker's environment variables that Bash
   * commands get besides the default allowlist (src/hostProcess/environment.ts), sandboxed or not.
   */
  passEnv?: string[];
  /**
   * durable-agent only: where command hooks run. `sandboxed` (the default): inside the session's OS
   * sandbox, with the plan of its sandboxed Bash; `host`: outside it, as the worker's user (the
   * door's environment, the project root), for hooks that must reach what the sandbox denies.
   * Nothing changes while the sandbox is off for the session (hooks run on the host then).
   */
  hooks?: SandboxHooksMode;
  /**
   * durable-agent only: where stdio MCP servers run. `sandboxed` (the default): inside the session's
   * OS sandbox with the plan of its sandboxed Bash, one server process per session
   * (src/mcp/sandboxed.ts); `host`: outside it, as the worker's user (the door's `mcp-server`
   * environment, the project root), shared by the sessions with the same configuration.
   */
  mcpServers?: SandboxHooksMode;
  /**
   * durable-agent only, set by the worker (never read from a settings file): the linked worktrees
   * whose git a command in this session redirects to a shadow while it runs (src/worktree/git/).
   */
  worktreeGit?: Array<{ commonDir: string; gitDir: string }>;
  /**
   * durable-agent only, set at the edge when the session starts (src/sessionInput.ts; never read
   * from a settings file): the session's project repository, the only one worker-side git runs in
   * (EnterWorktree, isolated agents; src/worktree/worktrees.ts). `false`: the session started outside a
   * git repository, so it makes and enters no worktree. Absent: a session started before this was
   * recorded (the repository is found from its start directory).
   */
  repository?: ProjectRepository | false;
}

export const SANDBOX_HOOKS_MODES = ['sandboxed', 'host'] as const;
export type SandboxHooksMode = (typeof SANDBOX_HOOKS_MODES)[number];

export interface SettingsProblem {
  level: 'error' | 'warning';
  /** Dotted key, e.g. `sandbox.network.allowedDomains`. */
  key: string;
  message: string;
}

type Kind =
  | 'boolean'
  | 'strings'
  | 'envNames'
  | 'port'
  | 'string'
  | 'platforms'
  | 'ripgrep'
  | 'violations'
  | 'object'
  | 'hooksMode';

const TOP: Record<string, Kind> = {
  enabled: 'boolean',
  failIfUnavailable: 'boolean',
  autoAllowBashIfSandboxed: 'boolean',
  excludedCommands: 'strings',
  allowUnsandboxedCommands: 'boolean',
  enabledPlatforms: 'platforms',
  ignoreViolations: 'violations',
  enableWeakerNestedSandbox: 'boolean',
  enableWeakerNetworkIsolation: 'boolean',
  allowNestedUserNamespaces: 'boolean',
  allowAppleEvents: 'boolean',
  bwrapPath: 'string',
  socatPath: 'string',
  ripgrep: 'ripgrep',
  network: 'object',
  filesystem: 'object',
  passEnv: 'envNames',
  hooks: 'hooksMode',
  mcpServers: 'hooksMode',
};
const NETWORK: Record<string, Kind> = {
  allowedDomains: 'strings',
  deniedDomains: 'strings',
  allowUnixSockets: 'strings',
  allowAllUnixSockets: 'boolean',
  allowLocalBinding: 'boolean',
  allowMachLookup: 'strings',
  httpProxyPort: 'port',
  socksProxyPort: 'port',
  strictAllowlist: 'boolean',
};
const FILESYSTEM: Record<string, Kind> = {
  allowWrite: 'strings',
  denyWrite: 'strings',
  denyRead: 'strings',
  allowRead: 'strings',
  disabled: 'boolean',
};

/**
 * Reference keys that durable-agent does not implement. They are errors, not warnings: each one
 * would change what a sandboxed command may do, and running without it would be less safe or
 * different from what the file says.
 */
const REJECTED: Record<string, string> = {
  'sandbox.credentials':
    'credential masking is not supported by durable-agent; deny the files with sandbox.filesystem.denyRead instead',
  'sandbox.network.allowManagedDomainsOnly':
    'durable-agent has no managed settings, so this managed-only key cannot apply',
  'sandbox.network.tlsTerminate':
    'TLS termination (needed only for credential masking) is not supported by durable-agent',
  'sandbox.network.mitmProxy': 'an upstream MITM proxy is not supported by durable-agent',
  'sandbox.network.parentProxy': 'an upstream (parent) proxy is not supported by durable-agent',
  'sandbox.filesystem.allowManagedReadPathsOnly':
    'durable-agent has no managed settings, so this managed-only key cannot apply',
};

export const SANDBOX_PLATFORMS = ['macos', 'linux', 'windows', 'wsl'] as const;

function checkKind(kind: Kind, v: unknown): string | undefined {
  switch (kind) {
    case 'boolean':
      return typeof v === 'boolean' ? undefined : 'must be true or false';
    case 'string':
      return typeof v === 'string' && v !== '' ? undefined : 'must be a non-empty string';
    case 'strings':
      return Array.isArray(v) && v.every((x) => typeof x === 'string' && x.trim() !== '')
        ? undefined
        : 'must be a list of non-empty strings';
    case 'envNames': {
      if (!Array.isArray(v)) return 'must be a list of environment variable names (NAME, or PREFIX_* for a prefix)';
      const i = v.findIndex((x) => typeof x !== 'string' || !PASS_ENV_ENTRY.test(x));
      return i < 0
        ? undefined
        : `[${i}] must be an environment variable name (NAME, or PREFIX_* for a prefix), not ${JSON.stringify(v[i])}`;
    }
    case 'port':
      return Number.isInteger(v) && (v as number) > 0 && (v as number) < 65536
        ? undefined
        : 'must be a TCP port (1-65535)';
    case 'platforms':
      return Array.isArray(v) && v.every((x) => (SANDBOX_PLATFORMS as readonly unknown[]).includes(x))
        ? undefined
        : `must be a list of ${SANDBOX_PLATFORMS.join(', ')}`;
    case 'ripgrep': {
      const r = v as { command?: unknown; args?: unknown } | null;
      if (!r || typeof r !== 'object' || typeof r.command !== 'string' || r.command === '')
        return 'must be { "command": "…", "args"?: [ … ] }';
      if (r.args !== undefined && !(Array.isArray(r.args) && r.args.every((a) => typeof a === 'string')))
        return 'args must be a list of strings';
      const extra = Object.keys(r).filter((k) => k !== 'command' && k !== 'args');
      return extra.length ? `unknown key(s) ${extra.join(', ')}` : undefined;
    }
    case 'violations':
      return v &&
        typeof v === 'object' &&
        !Array.isArray(v) &&
        Object.values(v).every((l) => Array.isArray(l) && l.every((x) => typeof x === 'string'))
        ? undefined
        : 'must map command patterns to lists of paths';
    case 'object':
      return v && typeof v === 'object' && !Array.isArray(v) ? undefined : 'must be an object';
    case 'hooksMode':
      return (SANDBOX_HOOKS_MODES as readonly unknown[]).includes(v)
        ? undefined
        : `must be ${SANDBOX_HOOKS_MODES.map((m) => JSON.stringify(m)).join(' or ')}`;
  }
}

function validateObject(
  obj: Record<string, unknown>,
  table: Record<string, Kind>,
  prefix: string,
  out: SettingsProblem[],
): void {
  for (const [k, v] of Object.entries(obj)) {
    const key = `${prefix}.${k}`;
    if (REJECTED[key]) {
      out.push({ level: 'error', key, message: `${key} is not supported: ${REJECTED[key]}` });
      continue;
    }
    const kind = table[k];
    if (!kind) {
      out.push({
        level: 'error',
        key,
        message: `${key} is not a sandbox setting durable-agent knows (known: ${Object.keys(table).join(', ')})`,
      });
      continue;
    }
    const bad = checkKind(kind, v);
    if (bad) out.push({ level: 'error', key, message: bad.startsWith('[') ? `${key}${bad}` : `${key} ${bad}` });
  }
}

/**
 * Problems of a `sandbox` settings value. Unknown keys inside `sandbox` are errors (unlike unknown
 * top-level keys): a misspelt `denyRead` would otherwise leave a credential readable.
 */
export function validateSandboxSettings(value: unknown, prefix = 'sandbox'): SettingsProblem[] {
  const out: SettingsProblem[] = [];
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return [{ level: 'error', key: prefix, message: `${prefix} must be an object` }];
  const v = value as Record<string, unknown>;
  validateObject(v, TOP, prefix, out);
  if (v.network && typeof v.network === 'object' && !Array.isArray(v.network))
    validateObject(v.network as Record<string, unknown>, NETWORK, `${prefix}.network`, out);
  if (v.filesystem && typeof v.filesystem === 'object' && !Array.isArray(v.filesystem))
    validateObject(v.filesystem as Record<string, unknown>, FILESYSTEM, `${prefix}.filesystem`, out);
  return out;
}

/**
 * A settings path as the reference spells it, made absolute: `//x` and `/x` are absolute, `~` and
 * `~/x` stay (the worker that runs the command expands them), anything else is relative to `base`
 * (the project root for project settings, the settings directory for user settings).
 */
export function resolveSettingsPath(p: string, base: string): string {
  if (p.startsWith('//')) return p.slice(1);
  if (p.startsWith('/') || p === '~' || p.startsWith('~/')) return p;
  return path.resolve(base, p);
}

/** The settings' paths resolved against `base` (see resolveSettingsPath). */
export function resolveSandboxPaths(s: SandboxSettings, base: string): SandboxSettings {
  const out: SandboxSettings = { ...s };
  if (s.filesystem) {
    const fs: SandboxFilesystemSettings = { ...s.filesystem };
    for (const k of ['allowWrite', 'denyWrite', 'denyRead', 'allowRead'] as const) {
      const list = s.filesystem[k];
      if (list) fs[k] = list.map((p) => resolveSettingsPath(p, base));
    }
    out.filesystem = fs;
  }
  if (s.network?.allowUnixSockets)
    out.network = {
      ...s.network,
      allowUnixSockets: s.network.allowUnixSockets.map((p) => resolveSettingsPath(p, base)),
    };
  return out;
}

/** Merges two settings (later wins): lists are concatenated, scalars and objects of scalars overridden. */
export function mergeSandboxSettings(
  a: SandboxSettings | undefined,
  b: SandboxSettings | undefined,
): SandboxSettings | undefined {
  if (!a) return b;
  if (!b) return a;
  const mergeFlat = <T extends object>(x: T | undefined, y: T | undefined): T | undefined => {
    if (!x) return y;
    if (!y) return x;
    const out: Record<string, unknown> = { ...(x as Record<string, unknown>) };
    for (const [k, v] of Object.entries(y)) {
      const prev = out[k];
      out[k] = Array.isArray(prev) && Array.isArray(v) ? [...prev, ...v] : v;
    }
    return out as T;
  };
  const merged = mergeFlat<SandboxSettings>(a, b) as SandboxSettings;
  const network = mergeFlat(a.network, b.network);
  const filesystem = mergeFlat(a.filesystem, b.filesystem);
  const ignoreViolations = mergeFlat(a.ignoreViolations, b.ignoreViolations);
  return {
    ...merged,
    ...(network ? { network } : {}),
    ...(filesystem ? { filesystem } : {}),
    ...(ignoreViolations ? { ignoreViolations } : {}),
  };
}

/**
 * A project's or local settings file re-opens reads only inside its project (issue 30, round o):
 * HOME is closed to sandboxed commands (src/permissions/homeReads.ts), and a cloned repository's
 * `sandbox.filesystem.allowRead: ["~"]` must not open it, nor a credential file. The entries it
 * keeps, and those it drops (`~/…`, or an absolute path outside `projectRoot`), after
 * resolveSandboxPaths.
 */
export function projectScopeReads(
  s: SandboxSettings,
  projectRoot: string,
): { settings: SandboxSettings; dropped: string[] } {
  const list = s.filesystem?.allowRead;
  if (!list) return { settings: s, dropped: [] };
  const root = path.resolve(projectRoot);
  const inside = (p: string) => {
    if (p === '~' || p.startsWith('~/') || !path.isAbsolute(p)) return false;
    const wild = p.search(/[*?[{]/);
    const fixed = path.resolve(wild < 0 ? p : p.slice(0, wild) || '/');
    const rel = path.relative(root, fixed);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  const kept = list.filter(inside);
  const dropped = list.filter((p) => !inside(p));
  if (dropped.length === 0) return { settings: s, dropped };
  return { settings: { ...s, filesystem: { ...s.filesystem, allowRead: kept } }, dropped };
}
