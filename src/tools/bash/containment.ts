// Bash's containment: the sandbox's part of the permission decision, and how one call is wrapped for
// the OS sandbox (the plan, the session's directories, the protected paths' deny list and the check
// after the call, the worker's private state) with the environment it gets.
import type { SandboxRecord } from '../../core/toolRecords';
import { PASS_ENV_ENTRY } from '../../hostProcess/environment';
import {
  currentPlatform,
  type AcquireOptions,
  type PreparedCommand,
  type SandboxAvailability,
} from '../../sandbox/host';
import { planCall, type CallPlan } from '../../sandbox/policy';
import { sessionSandboxPlan, type Protection } from '../../sandbox/sessionPlan';
import type { PermissionResult, ToolUseContext } from '../../toolProtocol/Tool';
import { standaloneCd } from './command';
import type { BashInput } from './schema';

export { type Protection } from '../../sandbox/sessionPlan';
export { undoProtected } from '../../sandbox/afterCall';
export { settleTreeEvents } from '../../sandbox/treeWatch';

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

/** Wraps the command for the sandbox when the plan says so; says why when it does not. */
export async function containment(
  input: BashInput,
  ctx: ToolUseContext,
  /** How long the call may wait for a sandbox runtime (its timeout), and who hears what it waits for. */
  wait?: AcquireOptions,
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
  // This session's large results (the pipeline points the model at them): readable, not writable.
  const resultDir = (ctx.resultStore as { dir?: unknown } | undefined)?.dir;
  // The session's plan (src/sandbox/sessionPlan.ts), the one command hooks run in too.
  const { tmpDir, runtime, protection } = await sessionSandboxPlan({
    sessionId: ctx.sessionId,
    settings: ctx.permission.sandbox,
    workingDirectories: [ctx.agent.cwd, ...ctx.agent.additionalDirectories, ...ctx.permission.workingDirectories],
    ...(ctx.agent.worktree ? { worktree: ctx.agent.worktree } : {}),
    ...(ctx.permission.controlFiles ? { controlFiles: ctx.permission.controlFiles } : {}),
    privatePaths: ctx.privatePaths ?? [],
    readable: typeof resultDir === 'string' ? [resultDir] : [],
    who: 'Bash',
  });
  let prepared: PreparedCommand;
  try {
    prepared = await host.prepare(input.command, runtime, tmpDir, ctx.abortSignal, protection, wait);
  } catch (err) {
    if (ctx.abortSignal.aborted) throw err;
    // Nothing was started: a runtime the call waited for too long, one whose process ended (src/sandbox/runtimePool.ts).
    throw new Error(`Bash did not run: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  return { record: { sandboxed: true, reason: plan.reason }, prepared, ...(protection ? { protection } : {}) };
}

/** The worker's variables this call's command gets: the allowlist and the session's `sandbox.passEnv`. */
export function commandEnvironment(ctx: ToolUseContext): { passEnv: readonly string[] } {
  const passEnv = (ctx.permission?.sandbox?.passEnv ?? []).filter(
    (e) => typeof e === 'string' && PASS_ENV_ENTRY.test(e),
  );
  return { passEnv };
}
