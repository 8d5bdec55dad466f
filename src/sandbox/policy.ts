// From a session's sandbox settings to what one Bash call gets: whether it runs sandboxed and why,
// the sandbox-runtime configuration (the worker-wide part and the per-call part), the network
// allowlist. Pure (paths only) but for the sandbox's own programs, found on the trusted PATH
// (hostPrograms), so that it is unit-tested without a sandbox.
import { lstatSync, realpathSync, type Stats } from 'node:fs';
import * as path from 'node:path';
import type { PermissionRules } from '../toolProtocol/permissionTypes';
import type { SandboxSettings } from './settings';
import { credentialPathsFromEnv, DEFAULT_CREDENTIAL_PATHS } from '../permissions/credentials';
import { homeReads, snapDotEntries } from '../permissions/homeReads';
import { dotLinkTargets, homeProgramDirs, homeWritable } from '../permissions/homeClosure';
import { programCacheRoot, sandboxPrograms } from '../hostProcess/programs';

// The credential paths belong to the permission room (the file tools and the config reads refuse them too).
export { credentialPathsFromEnv, DEFAULT_CREDENTIAL_PATHS };

export interface SandboxHostFacts {
  home: string;
  /** The session's own temp directory (writable, and TMPDIR inside the sandbox). */
  sessionTmpDir: string;
  /**
   * The directory holding every session's temp and spool directories on this worker
   * (src/sandbox/sessionTemp.ts): read-denied, only `sessionTmpDir` inside it bound back — no
   * session's command sees another's temp files, task outputs or live spool.
   */
  sessionsRoot?: string;
  platform: string;
  /**
   * The protected paths this call may not write (src/sandbox/protect.ts protectedDenyWrite: built
   * per call from the session's working directories, never the worker's cwd).
   */
  protectedDenyWrite?: readonly string[];
  /**
   * The worker's own code inside what the call may write (src/hostProcess/workerCode.ts: the
   * durable-agent package's `dist` and `package.json`, its dependencies): readable, never writable.
   */
  workerCode?: readonly string[];
  /** The worker's environment and cwd: credential files they point at are read-denied too (credentialPathsFromEnv). */
  env?: Readonly<Record<string, string | undefined>>;
  cwd?: string;
  /**
   * The worker's own state (the store: every session's transcripts and results; the data
   * directory; the Temporal server's database): neither readable nor writable by sandboxed commands.
   */
  privatePaths?: readonly string[];
  /** Inside privatePaths, readable again (not writable): this session's own large results, which Read is pointed at. */
  ownResults?: readonly string[];
  /**
   * What the sandbox itself provides, readable in a closed HOME (src/permissions/homeReads.ts): the
   * runtime's own files (its seccomp helper), the git config copy, the programs it runs inside.
   */
  sandboxFiles?: readonly string[];
  /** The PATH the command runs with inside the sandbox: its entries under HOME are readable. */
  pathVar?: string;
}

/** How one Bash call runs. */
export interface CallPlan {
  sandboxed: boolean;
  /** One line: why it is (or is not) sandboxed. */
  reason: string;
  /** True when the sandbox is on for the session but this call leaves it (excluded / requested). */
  escapes: boolean;
}

export function sandboxEnabled(s: SandboxSettings | undefined, platform: string): { on: boolean; reason: string } {
  if (s?.enabled === false)
    return { on: false, reason: 'the sandbox is off for this session (sandbox.enabled: false or --no-sandbox)' };
  if (s?.enabledPlatforms && !s.enabledPlatforms.includes(platform)) {
    return {
      on: false,
      reason: `the sandbox is off on ${platform} (sandbox.enabledPlatforms: ${s.enabledPlatforms.join(', ')})`,
    };
  }
  return { on: true, reason: 'sandboxed' };
}

/** Splits a command into its simple commands at `&&`, `||`, `;`, `|`, `&` and newlines (quotes respected). */
export function simpleCommands(command: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let quote: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i] as string;
    if (quote) {
      cur += c;
      if (c === '\\' && quote === '"' && i + 1 < command.length) cur += command[++i];
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '\\' && i + 1 < command.length) {
      cur += c + command[++i];
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      cur += c;
      continue;
    }
    if (c === ';' || c === '|' || c === '&' || c === '\n') {
      parts.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  parts.push(cur);
  return parts
    .map((p) =>
      p
        .trim()
        .replace(/^\(+|\)+$/g, '')
        .trim(),
    )
    .filter((p) => p !== '');
}

function wildcardToRegex(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    's',
  );
}

/**
 * Does an `excludedCommands` entry match one simple command? Entries mean what they mean in the
 * reference: `docker` matches `docker` and `docker …`; `npm run test:*` (legacy prefix) and
 * wildcards (`git push *`) match as patterns. Leading `VAR=value` assignments are skipped.
 */
export function excludedEntryMatches(entry: string, simple: string): boolean {
  const cmd = simple.replace(/^(\s*[A-Za-z_][A-Za-z0-9_]*=("[^"]*"|'[^']*'|\S*)\s+)+/, '').trim();
  const e = entry.trim();
  if (e.endsWith(':*')) {
    const prefix = e.slice(0, -2);
    return cmd === prefix || cmd.startsWith(`${prefix} `);
  }
  if (e.includes('*')) return wildcardToRegex(e).test(cmd);
  return cmd === e || cmd.startsWith(`${e} `);
}

/** The excludedCommands entry that takes this command out of the sandbox, if any. */
export function excludedBy(command: string, excluded: readonly string[] | undefined): string | undefined {
  if (!excluded || excluded.length === 0) return undefined;
  for (const part of simpleCommands(command)) {
    const hit = excluded.find((e) => excludedEntryMatches(e, part));
    if (hit) return hit;
  }
  return undefined;
}

/**
 * Whether a Bash call runs in the sandbox. `excludedCommands` is a convenience, not a boundary
 * (as in the reference): a call it takes out of the sandbox always needs a human (see Bash's
 * checkPermissions). `dangerouslyDisableSandbox` counts only when allowUnsandboxedCommands is not false.
 */
export function planCall(
  s: SandboxSettings | undefined,
  platform: string,
  command: string,
  dangerouslyDisableSandbox?: boolean,
): CallPlan {
  const enabled = sandboxEnabled(s, platform);
  if (!enabled.on) return { sandboxed: false, reason: enabled.reason, escapes: false };
  if (dangerouslyDisableSandbox && s?.allowUnsandboxedCommands !== false) {
    return {
      sandboxed: false,
      reason: 'the call asked to run outside the sandbox (dangerouslyDisableSandbox)',
      escapes: true,
    };
  }
  const hit = excludedBy(command, s?.excludedCommands);
  if (hit) return { sandboxed: false, reason: `"${hit}" is in sandbox.excludedCommands`, escapes: true };
  return { sandboxed: true, reason: 'sandboxed', escapes: false };
}

export function expandTilde(p: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/')) return path.join(home, p.slice(2));
  return p;
}

/**
 * The directories a session's sandboxed commands may write besides its working directories —
 * `filesystem.allowWrite`, which the session's `Edit(...)` allow rules feed too — as absolute
 * directories: `~` expanded, a pattern cut before its first wildcard (`~/.local/bin/**` is
 * `~/.local/bin`). They are session directories for the door (src/hostProcess/programs.ts): no
 * program there and no PATH entry there is run or looked up outside the sandbox (red team, issue 30,
 * K1: `allowWrite: ["~/.cargo"]` with `~/.cargo/bin` on the worker's PATH, a planted `rg` run by Grep).
 */
export function writableDirectories(s: SandboxSettings | undefined, home: string): string[] {
  const out: string[] = [];
  for (const entry of s?.filesystem?.allowWrite ?? []) {
    const p = expandTilde(entry, home);
    const wild = p.search(/[*?[{]/);
    const dir = wild < 0 ? p : path.dirname(`${p.slice(0, wild)}x`);
    if (path.isAbsolute(dir)) out.push(path.resolve(dir));
  }
  return [...new Set(out)];
}

/** The worker-wide part of the sandbox-runtime configuration: sessions that share it run side by side. */
export interface GlobalRuntimeConfig {
  network: {
    allowedDomains: string[];
    deniedDomains: string[];
    allowUnixSockets?: string[];
    allowAllUnixSockets?: boolean;
    allowLocalBinding?: boolean;
    allowMachLookup?: string[];
    httpProxyPort?: number;
    socksProxyPort?: number;
  };
  filesystem: { denyRead: string[]; allowWrite: string[]; denyWrite: string[] };
  enableWeakerNestedSandbox?: boolean;
  enableWeakerNetworkIsolation?: boolean;
  allowAppleEvents?: boolean;
  bwrapPath?: string;
  socatPath?: string;
  ripgrep?: { command: string; args?: string[] };
  /** How deep the runtime's own scan of the worker's cwd goes: its least (see MANDATORY_DENY_SEARCH_DEPTH). */
  mandatoryDenySearchDepth?: number;
}

/**
 * The runtime lists the dangerous names below ITS process's cwd (ripgrep, per wrap) — the worker's
 * cwd, which is no session's directory: each session's own protected paths come from
 * sessionSandboxPlan. From `/` or a HOME that walk took up to its ten-second limit per command
 * (and left the rest unscanned); at its least depth it lists the cwd's children only.
 */
export const MANDATORY_DENY_SEARCH_DEPTH = 1;

/** The per-call part: what this session's command may read and write. */
export interface CallRuntimeConfig {
  filesystem: {
    denyRead: string[];
    allowRead: string[];
    allowWrite: string[];
    denyWrite: string[];
    disabled?: boolean;
  };
  allowNestedUserNamespaces?: boolean;
}

export interface RuntimePlan {
  global: GlobalRuntimeConfig;
  call: CallRuntimeConfig;
  /** Hosts this session's commands may reach (registered per command with the proxy). */
  allowedDomains: string[];
  /**
   * `sandbox.ignoreViolations`: applied to this call's reports by the host (src/sandbox/host.ts),
   * not given to the runtime, whose copy is worker-wide (sessions that differ in it share a runtime).
   */
  ignoreViolations?: Record<string, string[]>;
}

/**
 * Keys of the runtime's worker-wide configuration that only its macOS (and Windows) sandbox reads:
 * on Linux the wrap never sees them (bubblewrap unshares the network; Unix sockets are one seccomp
 * switch, `allowAllUnixSockets`). Left out there, so that sessions differing only in them share a
 * runtime instead of starting one each (src/sandbox/runtimePool.ts).
 */
function withoutUnusedOn(platform: string, g: GlobalRuntimeConfig): GlobalRuntimeConfig {
  if (platform !== 'linux' && platform !== 'wsl') return g;
  const { allowUnixSockets: _s, allowLocalBinding: _b, allowMachLookup: _m, ...network } = g.network;
  const { allowAppleEvents: _a, enableWeakerNetworkIsolation: _w, ...rest } = g;
  return { ...rest, network };
}

/**
 * The sandbox's own programs, always as absolute paths: the user's (`bwrapPath`, `socatPath`,
 * `ripgrep`) or else those found on the trusted PATH (src/hostProcess/programs.ts). Left to the
 * runtime, it looks `bwrap` up by name in the wrapped command and `socat`/`rg` by name in the
 * worker: on an npx-started worker's PATH, `<project>/node_modules/.bin` first, where sandboxed
 * Bash may plant them (red teams, issue 30, I-3, J1b, J6).
 */
export function hostPrograms(
  s: SandboxSettings | undefined,
): Pick<GlobalRuntimeConfig, 'bwrapPath' | 'socatPath' | 'ripgrep'> {
  const found = sandboxPrograms();
  const bwrapPath = s?.bwrapPath || found.bwrap;
  const socatPath = s?.socatPath || found.socat;
  const ripgrep = s?.ripgrep ?? (found.rg ? { command: found.rg } : undefined);
  return { ...(bwrapPath ? { bwrapPath } : {}), ...(socatPath ? { socatPath } : {}), ...(ripgrep ? { ripgrep } : {}) };
}

/**
 * The sandbox-runtime configuration of one session's Bash calls. Writes: the working directories,
 * the session's temp dir and `filesystem.allowWrite`; reads: everything but the credential paths,
 * the worker's private state, other sessions' temp directories (the sessions root) and
 * `filesystem.denyRead` (minus `allowRead`); network: only `network.allowedDomains`.
 */
export function runtimePlan(
  s: SandboxSettings | undefined,
  workingDirectories: readonly string[],
  host: SandboxHostFacts,
): RuntimePlan {
  const ex = (list: readonly string[] | undefined) => (list ?? []).map((p) => expandTilde(p, host.home));
  const net = s?.network ?? {};
  const global: GlobalRuntimeConfig = {
    network: {
      allowedDomains: [],
      deniedDomains: [...(net.deniedDomains ?? [])],
      ...(net.allowUnixSockets ? { allowUnixSockets: ex(net.allowUnixSockets) } : {}),
      ...(net.allowAllUnixSockets !== undefined ? { allowAllUnixSockets: net.allowAllUnixSockets } : {}),
      ...(net.allowLocalBinding !== undefined ? { allowLocalBinding: net.allowLocalBinding } : {}),
      ...(net.allowMachLookup ? { allowMachLookup: [...net.allowMachLookup] } : {}),
      ...(net.httpProxyPort !== undefined ? { httpProxyPort: net.httpProxyPort } : {}),
      ...(net.socksProxyPort !== undefined ? { socksProxyPort: net.socksProxyPort } : {}),
    },
    filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
    ...(s?.enableWeakerNestedSandbox !== undefined ? { enableWeakerNestedSandbox: s.enableWeakerNestedSandbox } : {}),
    ...(s?.enableWeakerNetworkIsolation !== undefined
      ? { enableWeakerNetworkIsolation: s.enableWeakerNetworkIsolation }
      : {}),
    ...(s?.allowAppleEvents !== undefined ? { allowAppleEvents: s.allowAppleEvents } : {}),
    ...hostPrograms(s),
    mandatoryDenySearchDepth: MANDATORY_DENY_SEARCH_DEPTH,
  };
  const fs = s?.filesystem ?? {};
  const fromEnv = host.env ? credentialPathsFromEnv(host.env, host.home, host.cwd ?? host.home) : [];
  // The programs cache of this host's person (the Temporal CLI their next `dev` runs: issue 30, K8).
  const privatePaths = [...(host.privatePaths ?? []), programCacheRoot({ ...(host.env ?? {}), HOME: host.home })];
  const ownResults = [...(host.ownResults ?? [])];
  const allowWrite = [...new Set([...workingDirectories, host.sessionTmpDir, ...ex(fs.allowWrite)])].filter(
    (d) => !ownResults.includes(d),
  );
  // HOME is closed but for what the command needs (issue 30, round o): the person's allowRead of it
  // is allowed back there; a pattern, or a path outside HOME, goes to the runtime as written.
  const personAllow = ex(fs.allowRead);
  const home = homeReads({
    home: host.home,
    writable: allowWrite,
    readable: [
      ...ownResults,
      ...personAllow.filter((p) => !/[*?[\]]/.test(p)),
      // The repository's root, but a repository that holds HOME (a dotfiles repository in `~`) opens its git directory only.
      ...(s?.repository ? [holdsHome(s.repository.root, host.home) ? s.repository.commonDir : s.repository.root] : []),
      ...(host.sandboxFiles ?? []),
    ],
    ...(host.pathVar !== undefined ? { pathVar: host.pathVar } : {}),
  });
  const homeReal = realOrUndefined(host.home); // once, not per credential path (issue 32: per-call cost)
  const allowRead = home.closed ? personAllow.filter((p) => /[*?[\]]/.test(p) || home.reopens(p)) : personAllow;
  const call: CallRuntimeConfig = {
    filesystem: {
      // A credential file in a closed part of HOME needs no mount of its own (one fewer for the runtime to look at).
      denyRead: [
        ...new Set([
          ...home.denyRead,
          ...[...ex(DEFAULT_CREDENTIAL_PATHS), ...fromEnv, ...privatePaths].filter(
            (p) => home.reopens(p) || leavesHome(p, homeReal),
          ),
          ...(host.sessionsRoot ? [host.sessionsRoot] : []),
          ...ex(fs.denyRead),
        ]),
      ],
      allowRead: [...new Set([...ownResults, ...allowRead, ...home.allowRead])],
      // This session's results are readable, never writable (a result the model Reads back is the stored one).
      // A writable HOME (a session started in `~`) without its dot-entries, absent ones too (red team o, O11).
      allowWrite: homeWritable(allowWrite, host.home, host.pathVar),
      denyWrite: [
        ...new Set([
          ...privatePaths,
          ...ex(fs.denyWrite),
          ...(host.protectedDenyWrite ?? []),
          ...(host.workerCode ?? []),
          // A session in HOME: the person's program directories there (`~/bin`, PATH entries), existing or not (O11).
          ...(home.closed === 'dot-entries'
            ? [...homeProgramDirs(host.home, host.pathVar), ...dotLinkTargets(host.home), ...snapDotEntries(host.home)]
            : []),
        ]),
      ],
      ...(fs.disabled ? { disabled: true } : {}),
    },
    ...(s?.allowNestedUserNamespaces !== undefined ? { allowNestedUserNamespaces: s.allowNestedUserNamespaces } : {}),
  };
  return {
    global: withoutUnusedOn(host.platform, global),
    call,
    allowedDomains: [...new Set(net.allowedDomains ?? [])],
    ...(s?.ignoreViolations ? { ignoreViolations: s.ignoreViolations } : {}),
  };
}

/** Does an entry under HOME resolve out of it (`~/.ssh` a link to a dotfiles directory: its target must stay denied, O16)? */
function leavesHome(p: string, homeReal: string | undefined): boolean {
  if (homeReal === undefined) return false;
  // Most of the credential paths are absent: one lstat says so, with no error thrown, where realpath
  // reads each component on the way and throws (issue 32: ≈ 1,800 readlinks a call). What lstat
  // cannot reach, realpath cannot resolve.
  if (!lstatOrUndefined(p)) return false;
  const real = realOrUndefined(p);
  return real !== undefined && real !== homeReal && !real.startsWith(`${homeReal}/`);
}

function lstatOrUndefined(p: string): Stats | undefined {
  try {
    return lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function realOrUndefined(p: string): string | undefined {
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/** Is `dir` HOME or an ancestor of it? */
function holdsHome(dir: string, home: string): boolean {
  const rel = path.relative(path.resolve(dir), path.resolve(home));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The reference merges path permission rules into the sandbox: `Read(…)` deny rules are read-denied,
 * `Edit(…)` deny rules write-denied, `Edit(…)` allow rules writable, so that `cat .env` in Bash meets
 * the same wall as `Read(.env)`. Rule paths are anchored at the project root: `//x` absolute,
 * `~/x` home, `/x`, `./x` and `x/y` relative to the root, a bare name (`.env`) at any depth.
 */
export function sandboxPathsFromRules(
  rules: PermissionRules,
  projectRoot: string,
): { denyRead: string[]; denyWrite: string[]; allowWrite: string[] } {
  const out = { denyRead: [] as string[], denyWrite: [] as string[], allowWrite: [] as string[] };
  const pathOf = (spec: string): string => {
    if (spec.startsWith('//')) return spec.slice(1);
    if (spec === '~' || spec.startsWith('~/')) return spec;
    if (spec.startsWith('/')) return path.join(projectRoot, spec.slice(1));
    if (!spec.includes('/')) return path.join(projectRoot, '**', spec);
    return path.resolve(projectRoot, spec);
  };
  const specOf = (rule: string, tool: string): string | undefined => {
    const m = /^\s*([A-Za-z]+)\((.*)\)\s*$/s.exec(rule);
    if (!m || m[1] !== tool) return undefined;
    const spec = (m[2] as string).trim();
    return spec === '' || spec === '*' ? undefined : spec;
  };
  for (const r of rules.deny) {
    const read = specOf(r, 'Read');
    if (read) out.denyRead.push(pathOf(read));
    const edit = specOf(r, 'Edit') ?? specOf(r, 'Write');
    if (edit) out.denyWrite.push(pathOf(edit));
  }
  for (const r of rules.allow) {
    const edit = specOf(r, 'Edit') ?? specOf(r, 'Write');
    if (edit) out.allowWrite.push(pathOf(edit));
  }
  return out;
}

/** One line for `run`, `status` and the audit: what the session's Bash is contained by. */
export function describeSandbox(
  s: SandboxSettings | undefined,
  platform: string,
  workingDirectories: readonly string[],
  unavailable?: string,
): string {
  const enabled = sandboxEnabled(s, platform);
  if (!enabled.on) return `off — ${enabled.reason}; Bash runs with the worker's full rights`;
  if (unavailable) {
    return s?.failIfUnavailable
      ? `unavailable — ${unavailable}; sandbox.failIfUnavailable is set, so Bash calls are refused`
      : `unavailable — ${unavailable}; Bash runs unsandboxed (set sandbox.failIfUnavailable to refuse instead)`;
  }
  const domains = s?.network?.allowedDomains ?? [];
  const writes = [...workingDirectories, 'the session temp dir', ...(s?.filesystem?.allowWrite ?? [])];
  const excluded = s?.excludedCommands?.length ? `; excluded commands (ask): ${s.excludedCommands.join(', ')}` : '';
  return (
    `on — Bash writes only in ${writes.join(', ')}; network: ${domains.length ? domains.join(', ') : 'none'}; ` +
    `credentials (~/.ssh, ~/.aws, ~/.gnupg, …${s?.filesystem?.denyRead?.length ? ` and ${s.filesystem.denyRead.length} more` : ''}) unreadable` +
    `${s?.autoAllowBashIfSandboxed === false ? '' : '; sandboxed Bash calls run without asking (autoAllowBashIfSandboxed)'}${excluded}${s?.passEnv?.length ? `; environment: the allowlist plus ${s.passEnv.join(', ')} (sandbox.passEnv)` : ''}`
  );
}
