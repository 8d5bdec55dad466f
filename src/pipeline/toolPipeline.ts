// The single execution entry for one tool_use (invariant 2):
// find → schema → validateInput → PreToolUse hooks → permission → call → map → size policy →
// PostToolUse hooks (PostToolUseFailure when the call failed). Every failure becomes an is_error
// tool_result with the same id (invariant 6).
// No Temporal here: activities wrap this function; tests call it directly. Its inputs and outcome
// are in types.ts; what a scheduler asks before running a call is in describe.ts.
import { applyContextModifiers } from '../engine/context';
import { toolResultText, type ToolResultBlockParam, type ToolUseBlock } from '../engine/messages';
import { hooksFor, normalizeHooksConfig } from '../hooks/config';
import { hookToolResponse } from '../hooks/toolResponse';
import {
  runPostToolUseFailureHooks,
  runPostToolUseHooks,
  runPreToolUseHooks,
  type PostToolUseHooksResult,
} from '../hooks/run';
import type { HookRun, HooksConfig } from '../hooks/types';
import { loadShellParser } from '../permissions/bashParser';
import { decidePermission, pathsCheckedBy, type PermissionDecision } from '../permissions/decide';
import { permissionEnvOf, ruleMatches } from '../permissions/matcher';
import { decisionHidingFileErrors } from './fileChecks';
import type { AnyTool, ToolProgress, ToolResult, ToolUseContext } from '../tools/Tool';
import { findToolByName } from '../tools/pool';
import {
  appendToToolResult,
  errorToolResult,
  interruptedToolResult,
  noSuchToolResult,
  persistedOutputMessage,
  rejectionToolResult,
  MAX_ERROR_CHARS,
  errMessage,
  isValidBlock,
} from './messages';
import { humanReason, trimRun } from './records';
import { formatInputValidationError } from './validation';
import type { FailureStage, PipelineEnv, ToolUseOutcome, ToolUseStatus } from './types';

/** Runs one tool_use through the whole pipeline. Never throws. */
export async function runToolPipeline(block: ToolUseBlock, env: PipelineEnv): Promise<ToolUseOutcome> {
  const startedAt = Date.now();
  const toolUseId = typeof block?.id === 'string' ? block.id : String(block?.id);
  const toolName = typeof block?.name === 'string' ? block.name : String(block?.name);
  const state = {
    input: block?.input as unknown,
    hookNotices: [] as string[],
    hookRuns: [] as HookRun[],
    context: [] as string[],
    permission: undefined as ToolUseOutcome['permission'],
    ask: undefined as ToolUseOutcome['ask'],
    stop: undefined as ToolUseOutcome['stop'],
  };

  const outcome = (status: ToolUseStatus, extra: Partial<ToolUseOutcome>): ToolUseOutcome => {
    const o: ToolUseOutcome = {
      toolUseId,
      toolName,
      status,
      contextModifiers: [],
      newMessages: [],
      input: state.input,
      hookNotices: state.hookNotices,
      startedAt,
      endedAt: Date.now(),
      ...extra,
    };
    if (state.hookRuns.length) o.hookRuns = state.hookRuns.map(trimRun);
    if (state.permission && !o.permission) o.permission = state.permission;
    if (state.ask && !o.ask) o.ask = state.ask;
    if (state.stop) o.stop = state.stop;
    return o;
  };
  const withContext = (result: ToolResultBlockParam): ToolResultBlockParam => {
    let r = result;
    for (const c of state.context) r = appendToToolResult(r, c);
    return r;
  };
  const failed = (status: ToolUseStatus, stage: FailureStage, message: string, result?: ToolResultBlockParam) =>
    outcome(status, {
      result: withContext(result ?? errorToolResult(toolUseId, message)),
      failure: { stage, message },
    });
  const interrupted = (detail?: string) =>
    failed('interrupted', 'aborted', interruptedToolResult(toolUseId, detail).content as string);

  try {
    const signal = env.abortSignal;
    if (signal?.aborted) return interrupted('It was not started.');
    // The shell parser loads once (wasm): Bash's declarations and rules need it. If it cannot
    // load, every command is treated as unknown (not read-only, matched by no allow rule).
    await loadShellParser();

    // 1. find the tool (only in the pool)
    const tool = findToolByName(env.pool, toolName);
    if (!tool) {
      const r = noSuchToolResult(
        toolUseId,
        toolName,
        env.pool.map((t) => t.name),
      );
      return failed('error', 'unknown_tool', r.content as string, r);
    }

    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const ctx: ToolUseContext = {
        sessionId: env.sessionId,
        toolUseId,
        idempotencyKey:
          env.idempotencyScope && env.idempotencyScope !== env.sessionId
            ? `${env.sessionId}/${env.idempotencyScope}/${toolUseId}`
            : `${env.sessionId}/${toolUseId}`,
        agent: env.agent,
        permission: env.permission,
        abortSignal: controller.signal,
      };
      if (env.resultStore) ctx.resultStore = env.resultStore;
      if (env.privatePaths) ctx.privatePaths = env.privatePaths;
      if (env.sandboxHost) ctx.sandboxHost = env.sandboxHost;
      if (env.agents) ctx.agents = env.agents;
      if (env.runSubagent) ctx.runSubagent = env.runSubagent;
      if (env.sideModel) ctx.sideModel = env.sideModel;

      // 2 + 3. schema, then the tool's own validation
      type Validated = { ok: true; data: unknown } | { ok: false; out: ToolUseOutcome; data?: unknown };
      const validate = async (raw: unknown, note?: string): Promise<Validated> => {
        let parsed: ReturnType<typeof tool.inputSchema.safeParse>;
        try {
          parsed = tool.inputSchema.safeParse(raw);
        } catch (e) {
          const m = `InputValidationError: ${tool.name} input could not be validated${note ? ` (${note})` : ''}: ${errMessage(e)}`;
          return { ok: false, out: failed('error', 'schema', m) };
        }
        if (!parsed.success) {
          return {
            ok: false,
            out: failed('error', 'schema', formatInputValidationError(tool.name, parsed.error, raw, note)),
          };
        }
        if (tool.validateInput) {
          let v: Awaited<ReturnType<NonNullable<AnyTool['validateInput']>>>;
          try {
            v = await tool.validateInput(parsed.data, ctx);
          } catch (e) {
            return {
              ok: false,
              out: failed('error', 'validate', `${tool.name} could not validate its input: ${errMessage(e)}`),
              data: parsed.data,
            };
          }
          if (v && v.result === false) {
            const m = typeof v.message === 'string' && v.message ? v.message : `${tool.name}: invalid input`;
            return { ok: false, out: failed('error', 'validate', note ? `${m} (${note})` : m), data: parsed.data };
          }
        }
        return { ok: true, data: parsed.data };
      };

      /** Deny / ask / a human's answer for a decision; undefined when the call may go on. */
      const settle = (decision: PermissionDecision): ToolUseOutcome | undefined => {
        const reasonOf = decision.decisionReason ? { decisionReason: decision.decisionReason } : {};
        state.permission =
          decision.behavior === 'allow'
            ? { behavior: 'allow', ...reasonOf }
            : { behavior: decision.behavior, message: decision.message, ...reasonOf };
        const approval = env.approval;
        if (decision.behavior === 'deny') return failed('denied', 'permission', decision.message);
        if (decision.behavior === 'ask') {
          state.ask = { message: decision.message, ...reasonOf };
          if (!approval) return outcome('ask', {});
        } else if (!approval || approval.decision !== 'deny') {
          return undefined;
        }
        // A human's answer; their deny for this id stands even if the rules would now allow the call.
        const reason = humanReason(approval, env.permission.mode);
        if (approval.decision !== 'approve') {
          state.permission = { behavior: 'deny', decisionReason: reason, message: approval.reason ?? 'rejected' };
          const r = rejectionToolResult(toolUseId, approval.reason);
          return failed('denied', 'permission', r.content as string, r);
        }
        state.permission = { behavior: 'allow', decisionReason: reason };
        return undefined;
      };
      /** A path tool's file-system answer is shown only after the permission decision (fileChecks.ts). */
      const permissionBeforeFileErrors = async (v: Extract<Validated, { ok: false }>): Promise<ToolUseOutcome> => {
        if (v.data === undefined) return v.out;
        const d = await decisionHidingFileErrors(tool, v.data, ctx);
        if (!d) return v.out;
        state.input = v.data;
        return settle(d) ?? v.out;
      };

      // Phase 'post': the checks ran in phase 'pre'; continue from its state with the scheduler's output.
      const resumed = env.phase?.kind === 'post' ? env.phase : undefined;
      let data: unknown;
      if (resumed) {
        data = resumed.resume.input;
        state.input = data;
        state.context.push(...resumed.resume.context);
        state.hookNotices.push(...resumed.resume.notices);
        if (resumed.resume.permission) state.permission = resumed.resume.permission as ToolUseOutcome['permission'];
        if (resumed.resume.hookRuns) state.hookRuns.push(...(resumed.resume.hookRuns as HookRun[]));
      } else {
        const first = await validate(state.input);
        if (!first.ok) return await permissionBeforeFileErrors(first);
        data = first.data;
        state.input = data;
      }

      // 4. PreToolUse hooks
      let hooksConfig: HooksConfig | undefined;
      try {
        hooksConfig = env.hooks === undefined ? undefined : normalizeHooksConfig(env.hooks);
      } catch (e) {
        return failed(
          'error',
          'hook',
          `The hooks configuration is invalid, so ${tool.name} was not run: ${errMessage(e)}`,
        );
      }
      // A hook's `if` rule is matched as an ask rule would be (a Bash rule matches a command anywhere in the line).
      const callMatches = (rule: string): boolean => {
        try {
          return ruleMatches(rule, 'ask', tool, data, permissionEnvOf(ctx));
        } catch {
          return false;
        }
      };
      const hookEnv = {
        config: hooksConfig,
        cwd: env.agent.cwd,
        signal: controller.signal,
        aliases: tool.aliases ?? [],
        callMatches,
      };
      if (hooksFor(hooksConfig, 'PostToolUse', tool.name, tool.aliases ?? [], callMatches).length > 0)
        ctx.fileChangeForHooks = true;
      const anyToolHooks = !!(
        hooksConfig?.PreToolUse?.length ||
        hooksConfig?.PostToolUse?.length ||
        hooksConfig?.PostToolUseFailure?.length
      );
      let transcriptPath: string | undefined;
      if (anyToolHooks && env.transcriptPath) {
        try {
          transcriptPath = await env.transcriptPath();
        } catch (e) {
          state.hookNotices.push(`Could not write the transcript file for the hooks: ${errMessage(e)}`);
        }
      }
      // What every hook of this call receives on stdin (PostToolUse adds tool_response): the
      // input as the tool's observableInput shows it (absolute paths, defaults filled in).
      const observable = (input: unknown): unknown => {
        try {
          return tool.observableInput ? tool.observableInput(input, env.agent.cwd) : input;
        } catch {
          return input;
        }
      };
      const hookInput = () => ({
        session_id: env.sessionId,
        ...(transcriptPath ? { transcript_path: transcriptPath } : {}),
        cwd: env.agent.cwd,
        permission_mode: env.permission.mode,
        ...(env.agentHookFields ?? {}),
        tool_name: tool.name,
        tool_input: observable(data),
        tool_use_id: toolUseId,
      });
      /** After the call: feedback, context and a stop from PostToolUse or PostToolUseFailure hooks. */
      const takeAfterCall = (post: PostToolUseHooksResult, event: string): void => {
        state.hookRuns.push(...post.runs);
        state.hookNotices.push(...post.notices);
        if (post.stop && !state.stop) state.stop = post.stop;
        for (const f of post.feedback) state.context.push(`${event} hook feedback (blocking): ${f.reason}`);
        for (const c of post.additionalContext) state.context.push(`${event} hook additional context: ${c}`);
      };
      /** A call that failed: PostToolUseFailure hooks instead of PostToolUse (as the reference). */
      const failureHooks = async (error: string): Promise<void> => {
        const post = await runPostToolUseFailureHooks(
          { ...hookInput(), error, is_interrupt: false, duration_ms: Date.now() - callStarted },
          hookEnv,
        );
        takeAfterCall(post, 'PostToolUseFailure');
      };
      let callStarted = Date.now();
      if (!resumed) {
        const pre = await runPreToolUseHooks(hookInput(), hookEnv);
        state.hookRuns.push(...pre.runs);
        state.hookNotices.push(...pre.notices);
        for (const c of pre.additionalContext) state.context.push(`PreToolUse hook additional context: ${c}`);
        if (pre.stop) state.stop = pre.stop;
        if (controller.signal.aborted) return interrupted('It was stopped before it ran.');
        if (pre.block) {
          return failed('denied', 'hook', `PreToolUse hook blocked this ${tool.name} call: ${pre.block.reason}`);
        }
        if (pre.updatedInput !== undefined) {
          state.input = pre.updatedInput;
          const again = await validate(pre.updatedInput, 'input replaced by a PreToolUse hook');
          if (!again.ok) return await permissionBeforeFileErrors(again);
          data = again.data;
          state.input = data;
        }

        // 5. permission
        let decision: PermissionDecision;
        try {
          decision = await decidePermission(tool, data, ctx, pre.decision);
        } catch (e) {
          decision = {
            behavior: 'deny',
            message: `Permission check failed: ${errMessage(e)}`,
            decisionReason: { type: 'other', reason: 'permission engine error' },
          };
        }
        const stop = settle(decision);
        if (stop) return stop;
        // What the decision looked at: the file tools open only that (src/tools/safeFs.ts).
        const checked = pathsCheckedBy(decision);
        if (checked) ctx.permittedPaths = checked;
        if (decision.behavior === 'allow' && decision.updatedInput !== undefined) {
          state.input = decision.updatedInput;
          const again = await validate(decision.updatedInput, 'input replaced by the permission check');
          if (!again.ok) return again.out;
          data = again.data;
          state.input = data;
        }

        // 6. call
        if (controller.signal.aborted) return interrupted('It was stopped before it ran.');
        if (env.phase?.kind === 'pre') {
          // The scheduler runs the call itself (a child workflow); the post phase continues from here.
          return outcome('ready', {
            ready: {
              input: data,
              context: [...state.context],
              notices: [...state.hookNotices],
              hookRuns: state.hookRuns.map(trimRun),
              ...(state.permission ? { permission: state.permission } : {}),
            },
          });
        }
        if (env.beforeCall) {
          try {
            await env.beforeCall();
          } catch (e) {
            return failed(
              'error',
              'call',
              `Error calling tool ${tool.name}: could not record the call before running it: ${errMessage(e)}`,
            );
          }
        }
      }
      const onProgress = (p: ToolProgress) => {
        try {
          env.onProgress?.(p);
        } catch {
          // a failing observer must not fail the tool
        }
      };
      let removeAbortWaiter = () => undefined as void;
      const abortWaiter = new Promise<{ kind: 'aborted' }>((resolve) => {
        const h = () => resolve({ kind: 'aborted' });
        controller.signal.addEventListener('abort', h, { once: true });
        removeAbortWaiter = () => controller.signal.removeEventListener('abort', h);
      });
      callStarted = Date.now();
      const callPromise = Promise.resolve()
        .then(() => (resumed ? { data: resumed.output } : tool.call(data, ctx, onProgress)))
        .then(
          (value) => ({ kind: 'ok' as const, value }),
          (error: unknown) => ({ kind: 'error' as const, error }),
        );
      const raced = await Promise.race([callPromise, abortWaiter]);
      removeAbortWaiter();
      if (raced.kind === 'aborted') return interrupted();
      if (raced.kind === 'error') {
        if (controller.signal.aborted) return interrupted();
        const message = `Error calling tool ${tool.name}: ${errMessage(raced.error)}`;
        await failureHooks(message);
        return failed('error', 'call', message);
      }
      const result = raced.value as ToolResult<unknown> | undefined;
      if (!result || typeof result !== 'object' || !('data' in result)) {
        return failed('error', 'call', `Error calling tool ${tool.name}: call() returned no result`);
      }

      // 7. map to the API block
      let mapped: ToolResultBlockParam;
      try {
        const m = tool.mapToolResultToToolResultBlockParam(result.data, toolUseId);
        if (!isValidBlock(m)) throw new Error('mapToolResultToToolResultBlockParam returned a malformed block');
        mapped = { ...m, type: 'tool_result', tool_use_id: toolUseId };
        if (m.is_error !== true) delete mapped.is_error;
      } catch (e) {
        return failed(
          'error',
          'call',
          `Error calling tool ${tool.name}: the tool ran, but its result could not be converted: ${errMessage(e)}`,
        );
      }

      // 8. size policy
      let persistedTo: string | undefined;
      const text = toolResultText(mapped);
      const limit = tool.maxResultSizeChars;
      if (typeof limit === 'number' && Number.isFinite(limit) && limit >= 0 && text.length > limit) {
        if (env.resultStore) {
          try {
            persistedTo = await env.resultStore.put(toolUseId, text);
            mapped = { ...mapped, content: persistedOutputMessage(persistedTo, text) };
          } catch (e) {
            state.hookNotices.push(
              `Could not store the large ${tool.name} result (${text.length} chars); kept it inline: ${errMessage(e)}`,
            );
          }
        } else {
          state.hookNotices.push(
            `The ${tool.name} result (${text.length} chars) exceeds ${limit} chars but no result store is configured; kept it inline.`,
          );
        }
      }

      // 9. PostToolUse hooks (PostToolUseFailure for an error result, e.g. Bash's non-zero exit)
      if (mapped.is_error === true) {
        await failureHooks(toolResultText(mapped));
      } else {
        const response = hookToolResponse(
          tool.name,
          result.data,
          data,
          persistedTo === undefined ? undefined : { path: persistedTo, size: Buffer.byteLength(text) },
        );
        // As the reference, PostToolUse runs where a worktree call leaves the session (after
        // ExitWorktree remove the directory it started in is gone).
        const mods = Array.isArray(result.contextModifiers) ? result.contextModifiers : [];
        const cwdAfter = mods.some((m) => m.type === 'worktreeEntered' || m.type === 'worktreeExited')
          ? applyContextModifiers(env.agent, mods).cwd
          : env.agent.cwd;
        takeAfterCall(
          await runPostToolUseHooks(
            { ...hookInput(), cwd: cwdAfter, tool_response: response, duration_ms: Date.now() - callStarted },
            { ...hookEnv, cwd: cwdAfter },
          ),
          'PostToolUse',
        );
      }

      const finalResult = withContext(mapped);
      const contextModifiers = Array.isArray(result.contextModifiers) ? result.contextModifiers : [];
      const newMessages = Array.isArray(result.newMessages) ? result.newMessages : [];
      const extra: Partial<ToolUseOutcome> = { result: finalResult, contextModifiers, newMessages };
      if (persistedTo !== undefined) extra.persistedTo = persistedTo;
      if (result.sandbox && typeof result.sandbox === 'object') extra.sandbox = result.sandbox;
      if (result.network && typeof result.network === 'object') extra.network = result.network;
      if (mapped.is_error === true) {
        extra.failure = { stage: 'call', message: toolResultText(mapped).slice(0, MAX_ERROR_CHARS) };
        return outcome('error', extra);
      }
      return outcome('ok', extra);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  } catch (e) {
    return failed('error', 'call', `Error calling tool ${toolName}: internal pipeline error: ${errMessage(e)}`);
  }
}
