// A stdio MCP server inside the session's OS sandbox (issue 30; docs/security.md "One door").
//
// A server the user approved still loads code the sandboxed agent may have written: node's module
// lookup (`node_modules` beside the script), python before 3.11 putting the script's directory first
// on sys.path, a config file in its directory. On the host that code has the worker's rights (its
// /proc/<pid>/environ, ~/.bashrc, the settings files, the store). So by default a session's stdio
// server gets the plan of the session's sandboxed Bash (src/sandbox/sessionPlan.ts): writes in the
// session's working directories minus the protected paths, no read of the worker's state or of
// other sessions' temp directories, the session's network allowlist, a pid namespace with its own
// /proc; still through the door (purpose `mcp-server`: its environment allowlist), from the
// project root. `sandbox.mcpServers: "host"` opts out; the sandbox off: the host; unavailable: as
// Bash (`failIfUnavailable` refuses).
//
// A sandboxed server is bound to one session's plan (its temp directory, its working directories,
// its allowlist): the worker keeps one such process per session and server (McpManager keys it by
// the session id) and stops it when the session ends (`endMcpSessions`).
import { randomBytes } from 'node:crypto';
import type { PreparedCommand, SandboxHost } from '../sandbox/host';
import { sandboxEnabled } from '../sandbox/policy';
import { callEnded, callSpawned, callStarting, killCallProcesses } from '../sandbox/reaper';
import { currentPlatform } from '../sandbox/host';
import { hookPlacement, protectionScan, sessionSandboxPlan, type Protection } from '../sandbox/sessionPlan';
import { undoProtected } from '../sandbox/afterCall';
import { settleTreeEvents } from '../sandbox/treeWatch';
import { holdSessionTemp } from '../sandbox/sessionTemp';
import type { SandboxSettings } from '../sandbox/settings';
import { existsSync } from 'node:fs';
import { mcpServerControlFiles } from '../permissions/protectedPaths';
import { isRemoteMcpServer, type McpServers } from './config';
import { stdioCommands } from './pins';

/** What a session's stdio MCP servers may touch: the same as its sandboxed Bash (built by the caller). */
export interface McpSessionScope {
  sessionId: string;
  /** The session's sandbox settings (`{}`: the default, sandboxed). */
  settings: SandboxSettings;
  /** The session's working directories, its project root first (where its servers start). */
  workingDirectories: readonly string[];
  /** Files the session's hooks and servers run: protected like the other control files. */
  controlFiles?: readonly string[];
  /** The worker's own state (the store…): denied. */
  privatePaths?: readonly string[];
  /** The worker's sandbox; absent: a server that should be sandboxed does not start. */
  host?: SandboxHost;
}

/** A session's servers as a call names them (src/runtime: the model call's listing, a tool call's pool). */
export interface McpSessionListing {
  servers: McpServers;
  /** The session's project root: where its servers start. */
  cwd: string;
  /** Absent in calls an earlier release scheduled: the servers run on the host, as before. */
  sessionId?: string;
  sandbox?: SandboxSettings;
  additionalDirectories?: readonly string[];
}

/**
 * The sandbox scope of a session's servers, the same for every call of the session whichever call
 * starts a server first: writes in its root and additional directories, the files every server of
 * the session runs protected (the pinned files and the command lines' files).
 */
export function mcpSessionScope(
  listing: McpSessionListing,
  host: SandboxHost | undefined,
  privatePaths: readonly string[] | undefined,
): McpSessionScope | undefined {
  if (listing.sessionId === undefined) return undefined;
  const workingDirectories = [...new Set([listing.cwd, ...(listing.additionalDirectories ?? [])])];
  const pinned = Object.values(listing.servers).flatMap((s) =>
    isRemoteMcpServer(s) ? [] : Object.keys(s.pinnedFiles ?? {}),
  );
  const commandFiles = mcpServerControlFiles(
    stdioCommands(listing.servers),
    listing.cwd,
    workingDirectories,
    undefined,
    existsSync,
  );
  return {
    sessionId: listing.sessionId,
    settings: listing.sandbox ?? {},
    workingDirectories,
    // Only those present: an absent one would be an empty placeholder file in the project for the
    // server's whole life (an empty package.json breaks node); one created during a call is undone.
    controlFiles: [...new Set([...pinned, ...commandFiles])].filter((f) => existsSync(f)),
    ...(privatePaths ? { privatePaths } : {}),
    ...(host ? { host } : {}),
  };
}

/**
 * Does this session's server run in its own process, bound to the session (the sandbox on and not
 * `sandbox.mcpServers: "host"`)? Then the worker's connection is the session's alone.
 */
export function sessionBound(scope: McpSessionScope | undefined): boolean {
  if (!scope) return false;
  return sandboxEnabled(scope.settings, currentPlatform()).on && scope.settings.mcpServers !== 'host';
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A server's process inside the sandbox: what the transport spawns, and how it ends. */
export interface ContainedServer {
  /** Run as `bash -c <shellCommand>`. */
  shellCommand: string;
  /** The reaper's marker for the server's processes (src/sandbox/reaper.ts). */
  env: Record<string, string>;
  spawned(pid: number | undefined): void;
  /**
   * Around one tools/call (and the start): the protected paths new since just before it are undone
   * after it, as after a Bash command (src/sandbox/protect.ts).
   */
  guard<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Closes the server (`close`) once no call ran for `ms`: while it runs, its sandbox holds the
   * runtime's worker-wide configuration and the placeholders of absent protected paths in the
   * project; the next use starts it again.
   */
  idleAfter(ms: number, close: () => Promise<void>): void;
  /** Once the server exited: every process of it killed, the sandbox's holds released. Idempotent. */
  finish(): Promise<void>;
}

export type ServerContainment =
  | { kind: 'host'; reason?: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'sandboxed'; contained: ContainedServer };

/**
 * A server that writes again a protected path the live guard undid (red team, issue 30, L2): every
 * process of it killed (its client sees the server close).
 */
function stopWhenHostile(prepared: PreparedCommand, pid: number | undefined, callId: string): void {
  prepared.onHostile(() => {
    try {
      if (pid !== undefined) process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
    void killCallProcesses(callId).catch(() => 0);
  });
}

/** Where this session's server runs; inside the sandbox, its wrapped command. Never throws. */
export async function containMcpServer(
  scope: McpSessionScope | undefined,
  server: string,
  command: string,
  args: readonly string[],
): Promise<ServerContainment> {
  // No session (a library user's own manager) or an activity of an earlier release: on the host, as before.
  if (!scope) return { kind: 'host' };
  let placement;
  try {
    placement = await hookPlacement(scope.settings, scope.host, 'mcpServers');
  } catch (err) {
    return { kind: 'refused', reason: `the sandbox could not be checked: ${(err as Error).message}` };
  }
  if (placement.where === 'host') return { kind: 'host', reason: placement.reason };
  if (placement.where === 'refused') return { kind: 'refused', reason: placement.reason };
  // The session's temp directory stays while the server runs (a session that ends meanwhile removes it after).
  const releaseTemp = holdSessionTemp(scope.sessionId);
  let protection: Protection | undefined;
  let prepared;
  try {
    const plan = await sessionSandboxPlan({
      sessionId: scope.sessionId,
      settings: scope.settings,
      workingDirectories: scope.workingDirectories,
      ...(scope.controlFiles ? { controlFiles: scope.controlFiles } : {}),
      ...(scope.privatePaths ? { privatePaths: scope.privatePaths } : {}),
      who: `MCP server ${server}`,
    });
    protection = plan.protection;
    const line = `exec ${[command, ...args].map(shellQuote).join(' ')}`;
    prepared = await placement.host.prepare(line, plan.runtime, plan.tmpDir, undefined, protection);
  } catch (err) {
    releaseTemp();
    return {
      kind: 'refused',
      reason: `the server could not be prepared for the sandbox: ${(err as Error).message.split('\n')[0]}`,
    };
  }
  const callId = randomBytes(12).toString('base64url');
  const env = callStarting(callId);
  let pgid: number | undefined;
  let finished: Promise<void> | undefined;
  const sandboxed = prepared;
  const base = protection;
  let inFlight = 0;
  let idle: { ms: number; close: () => Promise<void>; timer?: NodeJS.Timeout } | undefined;
  const rest = () => {
    if (!idle || inFlight > 0 || finished) return;
    clearTimeout(idle.timer);
    const it = idle;
    it.timer = setTimeout(() => void (inFlight === 0 ? it.close().catch(() => undefined) : undefined), it.ms);
    it.timer.unref();
  };
  return {
    kind: 'sandboxed',
    contained: {
      shellCommand: sandboxed.shellCommand,
      env,
      spawned: (pid) => {
        pgid = pid;
        callSpawned(callId, pid);
        stopWhenHostile(sandboxed, pid, callId);
      },
      guard: async (fn) => {
        // The scan just before, so that only what appeared during this call is undone.
        const before = base ? { ...base, scan: protectionScan(base) } : undefined;
        inFlight++;
        if (idle) clearTimeout(idle.timer);
        try {
          return await fn();
        } finally {
          inFlight--;
          if (before) {
            await settleTreeEvents();
            await undoProtected(before);
          }
          rest();
        }
      },
      idleAfter: (ms, close) => {
        idle = { ms, close };
        rest();
      },
      finish: () =>
        (finished ??= (async () => {
          if (idle) clearTimeout(idle.timer);
          // The sandbox's own session (bwrap --new-session) is not the server's process group.
          await killCallProcesses(callId).catch(() => 0);
          callEnded(callId, pgid);
          try {
            await sandboxed.finish();
          } finally {
            releaseTemp();
          }
        })()),
    },
  };
}

/** The managers of this process, so that a session's end reaches each one (the worker's sink). */
const managers = new Set<{ closeSession(sessionId: string): Promise<void> }>();

export function registerMcpManager(m: { closeSession(sessionId: string): Promise<void> }): () => void {
  managers.add(m);
  return () => managers.delete(m);
}

/** The session ended: its sandboxed servers on this worker stop (each manager's closeSession). */
export async function endMcpSessions(sessionId: string): Promise<void> {
  await Promise.all([...managers].map((m) => m.closeSession(sessionId).catch(() => undefined)));
}
