// The tool hooks of one call: the configuration, what every hook receives on stdin, and the
// PreToolUse, PostToolUse and PostToolUseFailure runs whose answers the call's state takes.
import { applyContextModifiers } from '../../core/context';
import { hooksFor, normalizeHooksConfig } from '../../hooks/config';
import {
  hookProjectDir,
  runPostToolUseFailureHooks,
  runPostToolUseHooks,
  runPreToolUseHooks,
  type HookRunEnv,
  type PreToolUseHooksResult,
} from '../../hooks/run';
import { hookSandboxControlFiles, type HookSandbox } from '../../hooks/sandboxed';
import type { HooksConfig } from '../../hooks/types';
import { permissionEnvOf, ruleMatches } from '../../permissions/matcher';
import type { ToolResult } from '../../toolProtocol/Tool';
import { errMessage } from './resultBlocks';
import type { ToolRun } from './toolRun';
import type { ToolUseOutcome } from './types';

/**
 * The session's sandbox for its command hooks: the plan of its sandboxed Bash, with the project root
 * among the writable directories and this call's transcript file readable (src/hooks/sandboxed.ts).
 * None outside a session (no sandbox settings): the hooks run on the host, as Bash runs there.
 */
function hookSandboxOf(
  env: ToolRun['env'],
  config: HooksConfig | undefined,
  projectDir: string,
  transcriptPath: string | undefined,
): { sandbox?: HookSandbox } {
  const settings = env.permission.sandbox;
  if (!settings) return {};
  const resultDir = (env.resultStore as { dir?: unknown } | undefined)?.dir;
  const workingDirectories = [
    ...new Set([projectDir, env.agent.cwd, ...env.agent.additionalDirectories, ...env.permission.workingDirectories]),
  ];
  return {
    sandbox: {
      ...(env.sandboxHost ? { host: env.sandboxHost } : {}),
      sessionId: env.sessionId,
      settings,
      workingDirectories,
      ...(env.permission.controlFiles
        ? {
            controlFiles: hookSandboxControlFiles(env.permission.controlFiles, config, projectDir, workingDirectories),
          }
        : {}),
      ...(env.privatePaths ? { privatePaths: env.privatePaths } : {}),
      readable: [...(typeof resultDir === 'string' ? [resultDir] : []), ...(transcriptPath ? [transcriptPath] : [])],
    },
  };
}

export class CallHooks {
  private constructor(
    private readonly run: ToolRun,
    private readonly env: HookRunEnv,
    private readonly transcriptPath: string | undefined,
  ) {}

  /** The hooks of this call, or the outcome when the configuration is invalid (the tool does not run). */
  static async of(run: ToolRun): Promise<CallHooks | ToolUseOutcome> {
    const { env, tool, ctx, state } = run;
    let config: HooksConfig | undefined;
    try {
      config = env.hooks === undefined ? undefined : normalizeHooksConfig(env.hooks);
    } catch (e) {
      return state.failed(
        'error',
        'hook',
        `The hooks configuration is invalid, so ${tool.name} was not run: ${errMessage(e)}`,
      );
    }
    // A hook's `if` rule is matched as an ask rule would be (a Bash rule matches a command anywhere in the line).
    const callMatches = (rule: string): boolean => {
      try {
        return ruleMatches(rule, 'ask', tool, run.data, permissionEnvOf(ctx));
      } catch {
        return false;
      }
    };
    const passEnv = env.permission.sandbox?.passEnv;
    // The session's project root, fixed at its start: never where the agent has cd'd to (a
    // planted package.json or .claude/hooks there would run in place of the root's). The hook
    // input's `cwd` (below) is still the agent's current directory, as the reference's.
    const projectDir = hookProjectDir(env.hookPins, env.agent);
    if (hooksFor(config, 'PostToolUse', tool.name, tool.aliases ?? [], callMatches).length > 0)
      ctx.fileChangeForHooks = true;
    const anyToolHooks = !!(
      config?.PreToolUse?.length ||
      config?.PostToolUse?.length ||
      config?.PostToolUseFailure?.length
    );
    let transcriptPath: string | undefined;
    if (anyToolHooks && env.transcriptPath) {
      try {
        transcriptPath = await env.transcriptPath();
      } catch (e) {
        state.hookNotices.push(`Could not write the transcript file for the hooks: ${errMessage(e)}`);
      }
    }
    const hookEnv: HookRunEnv = {
      config,
      projectDir,
      ...(env.hookPins ? { pins: env.hookPins } : {}),
      ...(passEnv ? { passEnv } : {}),
      ...hookSandboxOf(env, config, projectDir, transcriptPath),
      signal: run.controller.signal,
      aliases: tool.aliases ?? [],
      callMatches,
    };
    return new CallHooks(run, hookEnv, transcriptPath);
  }

  /**
   * What every hook of this call receives on stdin (PostToolUse adds tool_response): the input as
   * the tool's observableInput shows it (absolute paths, defaults filled in).
   */
  private input() {
    const { env, tool, data, state } = this.run;
    let toolInput: unknown;
    try {
      toolInput = tool.observableInput ? tool.observableInput(data, env.agent.cwd) : data;
    } catch {
      toolInput = data;
    }
    return {
      session_id: env.sessionId,
      ...(this.transcriptPath ? { transcript_path: this.transcriptPath } : {}),
      cwd: env.agent.cwd,
      permission_mode: env.permission.mode,
      ...(env.agentHookFields ?? {}),
      tool_name: tool.name,
      tool_input: toolInput,
      tool_use_id: state.toolUseId,
    };
  }

  /** PreToolUse: runs, notices, additional context and a stop go into the state; the rest is the caller's. */
  async preToolUse(): Promise<PreToolUseHooksResult> {
    const { state } = this.run;
    const pre = await runPreToolUseHooks(this.input(), this.env);
    state.hookRuns.push(...pre.runs);
    state.hookNotices.push(...pre.notices);
    for (const c of pre.additionalContext) state.context.push(`PreToolUse hook additional context: ${c}`);
    if (pre.stop) state.stop = pre.stop;
    return pre;
  }

  /** A call that failed: PostToolUseFailure hooks instead of PostToolUse (as the reference). */
  async failure(error: string): Promise<void> {
    const post = await runPostToolUseFailureHooks(
      { ...this.input(), error, is_interrupt: false, duration_ms: Date.now() - this.run.callStarted },
      this.env,
    );
    this.run.state.takeAfterCall(post, 'PostToolUseFailure');
  }

  /** PostToolUse with the tool's response, run where a worktree call leaves the session. */
  async postToolUse(result: ToolResult<unknown>, response: unknown): Promise<void> {
    const { env } = this.run;
    // As the reference, PostToolUse's input `cwd` is where a worktree call leaves the session
    // (after ExitWorktree remove the directory it started in is gone); the hook itself runs from
    // the project root, as every hook.
    const mods = Array.isArray(result.contextModifiers) ? result.contextModifiers : [];
    const cwdAfter = mods.some((m) => m.type === 'worktreeEntered' || m.type === 'worktreeExited')
      ? applyContextModifiers(env.agent, mods).cwd
      : env.agent.cwd;
    const post = await runPostToolUseHooks(
      { ...this.input(), cwd: cwdAfter, tool_response: response, duration_ms: Date.now() - this.run.callStarted },
      this.env,
    );
    this.run.state.takeAfterCall(post, 'PostToolUse');
  }
}
