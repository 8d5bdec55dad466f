// What a session's tool calls run with, derived from its settings: the MCP servers a pool lists,
// the hooks (the session's and the worker's), and the permission context (result directory,
// default sandbox, protected control files). Shared by describing, running and the ledger.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { sessionRootOf, type AgentContext } from '../core/context';
import type { HooksConfig } from '../hooks';
import { hookCommandsOf } from '../hooks/config';
import type { McpServers } from '../mcp/config';
import { stdioCommands } from '../mcp/pins';
import { hookControlFiles, mcpServerControlFiles } from '../permissions/protectedPaths';
import { workerCodeInside } from '../hostProcess/workerCode';
import { withSessionsApart } from '../permissions/sessionsApart';
import type { ToolPermissionContext } from '../toolProtocol/permissionTypes';
import type { ResultStore } from '../toolProtocol/Tool';
import { sessionTasksPath, sessionTempPath, sessionTempRoot } from '../sandbox/host';
import { repositoryConfigTargets } from '../sandbox/repoConfigTargets';
import { toolConfigTargets } from '../sandbox/toolConfigTargets';
import type { SessionMcp, ToolSessionSettings } from './toolTypes';

/**
 * The session's MCP servers for a tool call's pool: started from the session's project root (the
 * root its hooks run from; never the agent's current cwd, which a `cd` moves where the agent wrote
 * a `server.js`), inside the session's sandbox (src/mcp/sandboxed.ts) with its additional directories.
 */
export function sessionMcp(
  session: ToolSessionSettings,
  wanted?: string,
  context?: Pick<AgentContext, 'cwd' | 'projectDir' | 'worktree' | 'additionalDirectories'>,
): SessionMcp | undefined {
  if (!session.mcpServers || Object.keys(session.mcpServers).length === 0) return undefined;
  const root =
    session.hookPins?.projectDir ??
    (context ? sessionRootOf(context) : (session.permission.workingDirectories[0] ?? process.cwd()));
  return {
    servers: session.mcpServers,
    cwd: root,
    sessionId: session.sessionId,
    // A session whose input says nothing about the sandbox has the default one (as sessionPermission).
    sandbox: session.permission.sandbox ?? {},
    additionalDirectories: context
      ? [...context.additionalDirectories]
      : session.permission.workingDirectories.slice(1),
    ...(wanted !== undefined ? { wanted } : {}),
  };
}

/** The session's hooks followed by the worker's own (library users add them programmatically), per event. */
export function withWorkerHooks(worker: HooksConfig | undefined, session?: HooksConfig): HooksConfig | undefined {
  if (!worker) return session;
  if (!session) return worker;
  const out: HooksConfig = { ...session };
  for (const [event, matchers] of Object.entries(worker) as Array<
    [keyof HooksConfig, HooksConfig[keyof HooksConfig]]
  >) {
    (out as Record<string, unknown>)[event] = [
      ...((session[event] as unknown[]) ?? []),
      ...((matchers as unknown[]) ?? []),
    ];
  }
  return out;
}

/**
 * The permission context a session's tool calls see: its result directory counts as a working
 * directory (see withResultDirectory), a session whose input says nothing about the sandbox
 * gets the default sandbox settings (`{}`: Bash sandboxed where the platform supports it), and
 * the files its command hooks and its stdio MCP servers run are protected paths (`controlFiles`,
 * from the hooks of the session's settings, resolved against `hookRoot` — the project root the
 * hooks run from, fixed at the session's start (src/hooks/run.ts hookProjectDir), never the cwd of
 * the call: a file planted where the agent cd'd to is not what a hook runs; absent, the first
 * working directory — and from the servers' command lines, resolved where the worker starts them).
 */
export function sessionPermission(
  permission: ToolPermissionContext,
  store: ResultStore,
  hooks?: HooksConfig,
  hookRoot?: string,
  mcpServers?: McpServers,
): ToolPermissionContext {
  const p = withResultDirectory(permission, store);
  const commands = hookCommandsOf(hooks);
  // Hooks run from the root (and it stays a working directory after a `cd`: permissionEnvOf), so
  // its files count even when the call's working directories start elsewhere.
  const base = hookRoot ?? permission.workingDirectories[0];
  const hookDirs = [...new Set([...(hookRoot ? [hookRoot] : []), ...permission.workingDirectories])];
  const controlFiles = [
    ...new Set([
      ...(base ? hookControlFiles(commands, base, hookDirs) : []),
      // The scripts the session's stdio MCP servers run (from the session's root; on the host with sandbox.mcpServers "host").
      ...mcpServerControlFiles(
        stdioCommands(mcpServers),
        hookRoot ?? permission.workingDirectories[0] ?? process.cwd(),
        permission.workingDirectories,
        undefined,
        existsSync,
      ),
      // What the person's own repository runs by itself: its hooks directory and the files its hooks,
      // drivers and includes name (the sandbox guards the same: src/sandbox/repoConfigTargets.ts; O6).
      ...repositoryConfigTargets(permission.workingDirectories).map((e) => e.path),
      // What the person's direnv, mise and uv control files load (src/sandbox/toolConfigTargets.ts).
      ...toolConfigTargets(permission.workingDirectories).map((e) => e.path),
    ]),
  ];
  const files =
    controlFiles.length > 0 ? { ...p, controlFiles: [...new Set([...(p.controlFiles ?? []), ...controlFiles])] } : p;
  // The worker's own code in the working directories (durable-agent installed in the project): the
  // file tools refuse to write it as a protected path (red team, issue 30, H-1).
  const own = workerCodeInside([...(hookRoot ? [hookRoot] : []), ...permission.workingDirectories]);
  const withFiles = own.length > 0 ? { ...files, workerCode: own } : files;
  return withFiles.sandbox ? withFiles : { ...withFiles, sandbox: {} };
}

/**
 * The session's background task outputs (Bash `run_in_background`) are files the model is told to
 * Read: their directory on this worker counts as a working directory, as the result directory does.
 * Every other session's directories under the same root are refused to the file tools in every
 * mode (ToolPermissionContext.sessionsApart).
 */
export function withTaskDirectory(permission: ToolPermissionContext, sessionId: string): ToolPermissionContext {
  const dir = sessionTasksPath(sessionId);
  // Every other session's temp, task-output and spool directories on this worker are refused (issue 30).
  const apart = withSessionsApart(permission.sessionsApart, {
    root: sessionTempRoot(),
    own: sessionTempPath(sessionId),
  });
  return permission.workingDirectories.includes(dir)
    ? { ...permission, sessionsApart: apart }
    : { ...permission, workingDirectories: [...permission.workingDirectories, dir], sessionsApart: apart };
}

/**
 * Large results are stored outside the working directory and the model is told to Read them:
 * the session's own result directory counts as a working directory, so that Read never asks;
 * the other sessions' result directories beside it, and the rest of the store they lie in (its
 * blobs: every session's transcript and the execution ledger), are refused (sessionsApart). A
 * subagent's directory lies inside its parent's (runtime/callDeps.ts sessionDirName): the parent
 * reads its children's results as part of its own; a child's own is only its own.
 */
export function withResultDirectory(permission: ToolPermissionContext, store: ResultStore): ToolPermissionContext {
  const { dir, root, formerly } = resultDirsOf(store);
  if (dir === undefined) return permission;
  // Every other session's large results are refused to the file tools (issue 30): only in the
  // worker's layout `<store>/results/…` (a custom store's parent may be anything).
  // The whole store holding `results/` is the worker's own (every session's transcript blobs, the
  // execution ledger, other sessions' results): refused too, but for this session's results (round e).
  const own = { own: dir, ...(formerly ? { formerly: [formerly] } : {}) };
  const sessionsApart =
    root !== undefined
      ? withSessionsApart(withSessionsApart(permission.sessionsApart, { root, ...own }), {
          root: path.dirname(root),
          ...own,
        })
      : permission.sessionsApart;
  return {
    ...permission,
    ...(permission.workingDirectories.includes(dir)
      ? {}
      : { workingDirectories: [...permission.workingDirectories, dir] }),
    ...(sessionsApart ? { sessionsApart } : {}),
  };
}

/**
 * The store's directory of this session's results, the root of every session's (the store's
 * `resultsRoot`, else the directory's parent when it is named `results`) and the name releases
 * before 0.3.0 gave it when that differs (never read: named in the refusal's message only).
 */
function resultDirsOf(store: ResultStore): { dir?: string; root?: string; formerly?: string } {
  const { dir, resultsRoot, formerDir } = store as { dir?: unknown; resultsRoot?: unknown; formerDir?: unknown };
  if (typeof dir !== 'string') return {};
  const root =
    typeof resultsRoot === 'string'
      ? resultsRoot
      : path.basename(path.dirname(dir)) === 'results'
        ? path.dirname(dir)
        : undefined;
  return {
    dir,
    ...(root !== undefined ? { root } : {}),
    ...(typeof formerDir === 'string' ? { formerly: formerDir } : {}),
  };
}

/**
 * The worker's private paths (workerPrivatePaths: its store, the default store, a `file:` store's
 * directory, the data directory) are refused to the file tools in every mode, as they are hidden
 * from sandboxed Bash (issue 30 round e): only this session's own result directory in them stays
 * readable (its subagents' lie inside it). Absent (outside a worker): unchanged.
 */
export function withWorkerPrivatePaths(
  permission: ToolPermissionContext,
  store: ResultStore,
  privatePaths: readonly string[] | undefined,
): ToolPermissionContext {
  if (!privatePaths || privatePaths.length === 0) return permission;
  const { dir, formerly } = resultDirsOf(store);
  // No result directory: `own` names nothing under any root, so the whole of each is refused.
  const own = dir ?? '/\0no-results';
  let apart = permission.sessionsApart;
  for (const root of privatePaths)
    apart = withSessionsApart(apart, { root, own, ...(formerly ? { formerly: [formerly] } : {}) });
  return { ...permission, sessionsApart: apart };
}
