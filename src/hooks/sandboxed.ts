// A command hook inside the session's OS sandbox (issue 30; docs/hooks.md "Where hooks run").
//
// A hook runs code the sandboxed agent may have written: a pinned script's `import helpers`, a
// `source`d file, a Makefile target, a tool's config file in the project. On the host that code has
// the worker's rights (its /proc/<pid>/environ, ~/.bashrc, the settings files, the store). So by
// default a command hook gets the plan of the session's sandboxed Bash (src/sandbox/sessionPlan.ts):
// writes in the session's working directories minus the protected paths, no read of the worker's
// state or of other sessions' temp directories (but of this run's transcript file), the session's
// network allowlist, a pid namespace with its own /proc; still through the door (purpose `hook`:
// its environment allowlist), from the project root, its process group killed at the timeout.
import { randomBytes } from 'node:crypto';
import type { SandboxHost } from '../sandbox/host';
import { callEnded, callSpawned, callStarting, killCallProcesses } from '../sandbox/reaper';
import { hookPlacement, sessionSandboxPlan, type Protection } from '../sandbox/sessionPlan';
import { sandboxGitEnv } from '../sandbox/gitEnv';
import { undoProtected } from '../sandbox/afterCall';
import { holdSessionTemp } from '../sandbox/sessionTemp';
import type { SandboxSettings } from '../sandbox/settings';
import { hookOutputFiles } from '../permissions/protectedPaths';
import { hookCommandsOf } from './config';
import type { CommandHookDef, HookSandboxRecord, HooksConfig } from './types';

/** What a session's command hooks may touch: the same as its sandboxed Bash (built by the caller from the session). */
export interface HookSandbox {
  /** The worker's (or the in-process runner's) sandbox; absent: a hook that should be sandboxed does not run. */
  host?: SandboxHost;
  sessionId: string;
  /** The session's sandbox settings (`{}`: the default, sandboxed). */
  settings: SandboxSettings;
  /** The session's working directories, its project root among them. */
  workingDirectories: readonly string[];
  /** The files the session's hooks and MCP servers run: protected like the other control files. */
  controlFiles?: readonly string[];
  /** The worker's own state (the store…): denied. */
  privatePaths?: readonly string[];
  /** Inside privatePaths, readable: this hook run's transcript file, the session's results. */
  readable?: readonly string[];
}

/**
 * The session's control files as its sandboxed hooks see them: the files its hooks only write to
 * (`> out.json`) are left out — protected from the agent's commands, writable by the hooks, whose
 * writes the sandbox confines (a link planted there leads nowhere it allows).
 */
export function hookSandboxControlFiles(
  controlFiles: readonly string[],
  config: HooksConfig | undefined,
  projectDir: string,
  dirs: readonly string[],
): string[] {
  const outputs = new Set(hookOutputFiles(hookCommandsOf(config), projectDir, dirs));
  return controlFiles.filter((f) => !outputs.has(f));
}

/** A hook's process inside the sandbox: what the runner spawns, and how it ends. */
export interface ContainedHook {
  /** Run as `bash -c <shellCommand>`. */
  shellCommand: string;
  /** The reaper's marker for this run's processes (src/sandbox/reaper.ts). */
  env: Record<string, string>;
  spawned(pid: number | undefined): void;
  /** After the process group was killed: every process of this run (the sandbox's own session too). */
  killAll(): Promise<void>;
  /** Once the hook ended: the sandbox's reports and the protected paths it wrote anyway (undone). */
  finish(): Promise<{ violations: string[]; protectedUndone: string[] }>;
}

export type HookContainment =
  | { kind: 'host'; record?: HookSandboxRecord }
  | { kind: 'refused'; record: HookSandboxRecord }
  | { kind: 'sandboxed'; record: HookSandboxRecord; contained: ContainedHook };

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The hook's command line as the sandbox's `bash -c` runs it: exec form word by word, else `sh -c` (or `bash -c`). */
export function hookCommandLine(def: Pick<CommandHookDef, 'command' | 'args' | 'shell'>): string {
  if (def.args) return [def.command, ...def.args].map(shellQuote).join(' ');
  return `${def.shell ?? 'sh'} -c ${shellQuote(def.command)}`;
}

/** Where this hook runs; inside the sandbox, its wrapped command. Never throws. */
export async function containHook(
  sandbox: HookSandbox | undefined,
  def: Pick<CommandHookDef, 'command' | 'args' | 'shell'>,
  signal?: AbortSignal,
): Promise<HookContainment> {
  // No session (a library user's own pipeline) or an activity an earlier release scheduled: on the host, as before.
  if (!sandbox) return { kind: 'host' };
  let placement;
  try {
    placement = await hookPlacement(sandbox.settings, sandbox.host);
  } catch (err) {
    const reason = `the sandbox could not be checked: ${(err as Error).message}`;
    return { kind: 'refused', record: { sandboxed: false, reason, refused: true } };
  }
  if (placement.where === 'host') return { kind: 'host', record: { sandboxed: false, reason: placement.reason } };
  if (placement.where === 'refused')
    return { kind: 'refused', record: { sandboxed: false, reason: placement.reason, refused: true } };
  // The session's temp directory stays while the hook runs (a session that ends meanwhile removes it after).
  const releaseTemp = holdSessionTemp(sandbox.sessionId);
  let protection: Protection | undefined;
  let prepared;
  try {
    const plan = await sessionSandboxPlan({
      sessionId: sandbox.sessionId,
      settings: sandbox.settings,
      workingDirectories: sandbox.workingDirectories,
      ...(sandbox.controlFiles ? { controlFiles: sandbox.controlFiles } : {}),
      ...(sandbox.privatePaths ? { privatePaths: sandbox.privatePaths } : {}),
      ...(sandbox.readable ? { readable: sandbox.readable } : {}),
      who: 'The hook',
    });
    protection = plan.protection;
    prepared = await placement.host.prepare(hookCommandLine(def), plan.runtime, plan.tmpDir, signal, protection);
  } catch (err) {
    releaseTemp();
    const reason = `the hook could not be prepared for the sandbox: ${(err as Error).message.split('\n')[0]}`;
    return { kind: 'refused', record: { sandboxed: false, reason, refused: true } };
  }
  const callId = randomBytes(12).toString('base64url');
  // git inside reads a copy of the person's global config without its credentials (sandboxGitConfig.ts).
  const env = { ...callStarting(callId), ...sandboxGitEnv() };
  let pgid: number | undefined;
  let finished: Promise<{ violations: string[]; protectedUndone: string[] }> | undefined;
  const sandboxedPrepared = prepared;
  return {
    kind: 'sandboxed',
    record: { sandboxed: true, reason: 'sandboxed' },
    contained: {
      shellCommand: sandboxedPrepared.shellCommand,
      env,
      spawned: (pid) => {
        pgid = pid;
        callSpawned(callId, pid);
        // A hook that writes again a protected path the live guard undid (red team, issue 30, L2): its
        // process group and every process of its run killed; the notice is in protectedUndone.
        sandboxedPrepared.onHostile(() => {
          try {
            if (pid !== undefined) process.kill(-pid, 'SIGKILL');
          } catch {
            // already gone
          }
          void killCallProcesses(callId).catch(() => 0);
        });
      },
      killAll: async () => {
        // The sandbox's own session (bwrap --new-session) is not the hook's process group.
        await killCallProcesses(callId).catch(() => 0);
      },
      finish: () =>
        (finished ??= (async () => {
          callEnded(callId, pgid);
          const { lines: violations } = await sandboxedPrepared.finish();
          let protectedUndone: string[];
          try {
            protectedUndone = protection ? await undoProtected(protection) : [];
          } finally {
            releaseTemp();
          }
          return { violations, protectedUndone };
        })()),
    },
  };
}
