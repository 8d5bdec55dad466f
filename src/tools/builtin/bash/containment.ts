// Bash's containment: the sandbox's part of the permission decision, and how one call is wrapped for
// the OS sandbox (the plan, the session's directories, the protected paths' deny list and the check
// after the call, the worker's private state) with the environment it gets.
import { realpathSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SandboxRecord } from '../../../engine/records';
import { PASS_ENV_ENTRY } from '../../../hostProcess/environment';
import {
  currentPlatform,
  sessionTempDir,
  sessionTempRoot,
  type PreparedCommand,
  type SandboxAvailability,
} from '../../../sandbox/host';
import { expandTilde, planCall, runtimePlan, type CallPlan } from '../../../sandbox/policy';
import { protectedDenyWrite, scanProtected, undoProtectedWrites, type ProtectedScan } from '../../../sandbox/protect';
import type { PermissionResult, ToolUseContext } from '../../Tool';
import { withinDirectories } from './cd';
import { standaloneCd } from './command';
import type { BashInput } from './schema';
import { sandboxInWorktree } from './worktreeLeases';

/** How this call runs, from the session's sandbox settings (none outside a session: no sandbox). */
function planFor(input: BashInput, ctx: ToolUseContext): CallPlan | undefined {
  const settings = ctx.permission.sandbox;
  if (!settings) return undefined;
  return planCall(settings, currentPlatform(), input.command, input.dangerouslyDisableSandbox);
}

/** The sandbox as this call's host sees it; no host in the context: not available (nothing sandboxed runs). */
function availabilityFor(ctx: ToolUseContext): Promise<SandboxAvailability> {
  return ctx.sandboxHost
    ? ctx.sandboxHost.availability()
    : Promise.resolve({ available: false, reason: 'no sandbox host was given to this tool call' });
}

/**
 * The sandbox's part of the permission decision (the reference's meaning): a call leaving the
 * sandbox always asks (decide.ts step 7b); a sandboxed call runs without asking when
 * autoAllowBashIfSandboxed (default true); with the sandbox unavailable and failIfUnavailable set,
 * nothing runs.
 */
export async function sandboxPermission(
  input: Pick<BashInput, 'command' | 'dangerouslyDisableSandbox'>,
  ctx: ToolUseContext,
): Promise<PermissionResult> {
  const passthrough: PermissionResult = { behavior: 'passthrough' };
  if (!ctx?.permission?.sandbox || typeof input?.command !== 'string') return passthrough; // no sandbox outside a session
  if (standaloneCd(input.command)) return passthrough; // handled without a shell
  const plan = planFor(input, ctx);
  if (!plan) return passthrough;
  if (plan.escapes) {
    return {
      behavior: 'ask',
      message: `Bash needs approval to run outside the sandbox: ${plan.reason}.`,
      decisionReason: {
        type: 'sandbox',
        reason: plan.reason,
        ...(input.dangerouslyDisableSandbox === true ? { requested: true } : {}),
      },
    };
  }
  if (!plan.sandboxed) return passthrough;
  const available = await availabilityFor(ctx);
  if (!available.available) {
    if (ctx.permission.sandbox?.failIfUnavailable) {
      const reason = `the sandbox is unavailable on this worker (${available.reason}) and sandbox.failIfUnavailable is set`;
      return { behavior: 'deny', message: `Bash did not run: ${reason}.`, decisionReason: { type: 'sandbox', reason } };
    }
    return passthrough;
  }
  if (ctx.permission.sandbox?.autoAllowBashIfSandboxed === false) return passthrough;
  return {
    behavior: 'allow',
    decisionReason: { type: 'sandbox', reason: 'runs in the OS sandbox (autoAllowBashIfSandboxed)' },
  };
}

/** What the check after a sandboxed call compares with (src/sandbox/protect.ts). */
export interface Protection {
  scan: ProtectedScan;
  denyWrite: string[];
  roots: string[];
  extra: string[];
}

function realOrSelf(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

/** Wraps the command for the sandbox when the plan says so; says why when it does not. */
export async function containment(
  input: BashInput,
  ctx: ToolUseContext,
): Promise<{ record?: SandboxRecord; prepared?: PreparedCommand; protection?: Protection }> {
  const plan = planFor(input, ctx);
  if (!plan) return {};
  if (!plan.sandboxed) return { record: { sandboxed: false, reason: plan.reason } };
  const host = ctx.sandboxHost;
  // The settings say sandboxed and this call was given no host: it does not run (never unsandboxed by omission).
  if (!host)
    throw new Error(
      'Bash did not run: the session runs Bash in the OS sandbox, and this call was given no sandbox host.',
    );
  const available = await host.availability();
  if (!available.available) {
    if (ctx.permission.sandbox?.failIfUnavailable) {
      throw new Error(
        `Bash did not run: the sandbox is unavailable on this worker (${available.reason}) and sandbox.failIfUnavailable is set.`,
      );
    }
    return { record: { sandboxed: false, reason: `the sandbox is unavailable on this worker: ${available.reason}` } };
  }
  const tmpDir = await sessionTempDir(ctx.sessionId);
  // In a worktree (EnterWorktree) the worktree is the working directory: a directory holding it (the
  // main checkout) is not writable from there, and git gets what it needs of the main repository's
  // git directory (worktreeGitAccess).
  const worktree = ctx.agent.worktree;
  const workingDirectories = [
    ...new Set([ctx.agent.cwd, ...ctx.agent.additionalDirectories, ...ctx.permission.workingDirectories]),
  ].filter((d) => !worktree || d === worktree.path || !withinDirectories(worktree.path, [d]));
  const settings = sandboxInWorktree(ctx.permission.sandbox, worktree);
  // The protected paths of THIS session's directories, as they are now (never the worker's cwd).
  let protection: Protection | undefined;
  if (!ctx.permission.sandbox?.filesystem?.disabled) {
    const roots = [...new Set(workingDirectories.map(realOrSelf))];
    const extra = ctx.permission.controlFiles ?? [];
    const scan = scanProtected(roots, extra);
    // Inside a git directory (a worktree's git access) no protected name configures anything: not a root to guard.
    const allowed = (settings?.filesystem?.allowWrite ?? []).map((p) => realOrSelf(expandTilde(p, os.homedir())));
    const writable = allowed.filter((p) => !p.split(path.sep).includes('.git'));
    protection = { scan, denyWrite: protectedDenyWrite(scan, roots, writable, allowed), roots, extra };
  }
  // This session's large results (the pipeline points the model at them): readable, not writable.
  const resultDir = (ctx.resultStore as { dir?: unknown } | undefined)?.dir;
  const ownResults = typeof resultDir === 'string' ? [resultDir] : [];
  // The worker's private state is read- and write-denied: a writable directory inside it would be
  // unusable (every write refused). Say so instead of running a command that cannot work.
  for (const dir of [tmpDir, ...workingDirectories.filter((d) => !ownResults.includes(d))]) {
    const holder = (ctx.privatePaths ?? []).find((p) => dir === p || dir.startsWith(p.endsWith('/') ? p : `${p}/`));
    if (holder) {
      const what =
        dir === tmpDir
          ? `the session's temp directory ${dir} (under the worker's TMPDIR)`
          : `the working directory ${dir}`;
      throw new Error(
        `Bash did not run: ${what} is inside ${holder}, the worker's own state (store or data directory), which sandboxed commands may neither read nor write. Use a directory outside it.`,
      );
    }
  }
  const runtime = runtimePlan(settings, workingDirectories, {
    home: os.homedir(),
    sessionTmpDir: tmpDir,
    // Every other session's temp, task outputs and live spool on this worker: unreadable (issue 30).
    sessionsRoot: sessionTempRoot(),
    platform: currentPlatform(),
    ...(protection ? { protectedDenyWrite: protection.denyWrite } : {}),
    env: process.env,
    cwd: process.cwd(),
    privatePaths: ctx.privatePaths ?? [],
    ownResults,
  });
  const prepared = await host.prepare(input.command, runtime, tmpDir, ctx.abortSignal);
  return { record: { sandboxed: true, reason: plan.reason }, prepared, ...(protection ? { protection } : {}) };
}

/** The worker's variables this call's command gets: the allowlist and the session's `sandbox.passEnv`. */
export function commandEnvironment(ctx: ToolUseContext): { passEnv: readonly string[] } {
  const passEnv = (ctx.permission?.sandbox?.passEnv ?? []).filter(
    (e) => typeof e === 'string' && PASS_ENV_ENTRY.test(e),
  );
  return { passEnv };
}

export function undoProtected(protection: Protection): string[] {
  const after = scanProtected(protection.roots, protection.extra);
  return undoProtectedWrites(protection.scan, after, protection.denyWrite, protection.roots);
}
