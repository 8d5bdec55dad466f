// The stages before call(): the input's schema and the tool's validateInput, the PreToolUse hooks,
// the permission decision (or a human's answer to an earlier ask), and the last checks before the
// call. Each returns the outcome that ends the run, or undefined when the call may go on.
import { decidePermission, pathsCheckedBy, type PermissionDecision } from '../../permissions/decide';
import type { AnyTool } from '../../toolProtocol/Tool';
import { toolToAPISchema } from '../../toolProtocol/apiSchema';
import { notLoadedHint } from '../../toolProtocol/deferredTools';
import type { CallHooks } from './callHooks';
import { decisionHidingFileErrors } from './fileChecks';
import { errMessage, rejectionToolResult } from './resultBlocks';
import { humanReason, trimRun } from './outcomeRecords';
import type { ToolRun } from './toolRun';
import type { ToolUseOutcome } from './types';
import { formatInputValidationError } from './validation';

type Validated = { ok: true; data: unknown } | { ok: false; out: ToolUseOutcome; data?: unknown };

/** An input error's text as the model gets it (schema and validateInput errors): in the reference's `<tool_use_error>` tags. */
export function inputErrorText(message: string): string {
  return `<tool_use_error>${message}</tool_use_error>`;
}

/** The hint after the schema error of a deferred tool the model called without loading it ('' otherwise). */
async function notLoadedNote(run: ToolRun): Promise<string> {
  const ask = run.env.deferredNotLoaded;
  if (!ask) return '';
  try {
    if (!(await ask(run.tool.name))) return '';
    return notLoadedHint(run.tool.name, (await toolToAPISchema(run.tool)).input_schema);
  } catch {
    return ''; // the hint is advice: the schema error stands without it
  }
}

/** The schema, then the tool's own validation. */
async function validate(run: ToolRun, raw: unknown, note?: string): Promise<Validated> {
  const { tool } = run;
  const fail = (stage: 'schema' | 'validate', message: string, untagged?: boolean): ToolUseOutcome =>
    run.state.failed('error', stage, untagged ? message : inputErrorText(message));
  let parsed: ReturnType<typeof tool.inputSchema.safeParse>;
  try {
    parsed = tool.inputSchema.safeParse(raw);
  } catch (e) {
    const m = `InputValidationError: ${tool.name} input could not be validated${note ? ` (${note})` : ''}: ${errMessage(e)}`;
    return { ok: false, out: fail('schema', m) };
  }
  if (!parsed.success) {
    const m = formatInputValidationError(tool.name, parsed.error, raw, note);
    return { ok: false, out: fail('schema', note ? m : m + (await notLoadedNote(run))) };
  }
  if (tool.validateInput) {
    let v: Awaited<ReturnType<NonNullable<AnyTool['validateInput']>>>;
    try {
      v = await tool.validateInput(parsed.data, run.ctx);
    } catch (e) {
      return {
        ok: false,
        out: fail('validate', `${tool.name} could not validate its input: ${errMessage(e)}`),
        data: parsed.data,
      };
    }
    if (v && v.result === false) {
      const m = typeof v.message === 'string' && v.message ? v.message : `${tool.name}: invalid input`;
      return { ok: false, out: fail('validate', note ? `${m} (${note})` : m, v.untagged), data: parsed.data };
    }
  }
  return { ok: true, data: parsed.data };
}

/**
 * Takes `raw` as the call's input if it validates. Invalid: its outcome; with 'decide', a path
 * tool's file-system answer is shown only after the permission decision (fileChecks.ts).
 */
export async function acceptInput(
  run: ToolRun,
  raw: unknown,
  invalid: 'decide' | 'report',
  note?: string,
): Promise<ToolUseOutcome | undefined> {
  run.state.input = raw;
  const v = await validate(run, raw, note);
  if (v.ok) {
    run.data = v.data;
    run.state.input = v.data;
    return undefined;
  }
  if (invalid === 'report' || v.data === undefined) return v.out;
  const d = await decisionHidingFileErrors(run.tool, v.data, run.ctx);
  if (!d) return v.out;
  run.state.input = v.data;
  return settle(run, d) ?? v.out;
}

/** Deny / ask / a human's answer for a decision; undefined when the call may go on. */
function settle(run: ToolRun, decision: PermissionDecision): ToolUseOutcome | undefined {
  const { state, env } = run;
  const reasonOf = decision.decisionReason ? { decisionReason: decision.decisionReason } : {};
  state.permission =
    decision.behavior === 'allow'
      ? { behavior: 'allow', ...reasonOf }
      : { behavior: decision.behavior, message: decision.message, ...reasonOf };
  const approval = env.approval;
  if (decision.behavior === 'deny') return state.failed('denied', 'permission', decision.message);
  if (decision.behavior === 'ask') {
    state.ask = { message: decision.message, ...reasonOf };
    if (!approval) return state.outcome('ask', {});
  } else if (!approval || approval.decision !== 'deny') {
    return undefined;
  }
  // A human's answer; their deny for this id stands even if the rules would now allow the call.
  const reason = humanReason(approval, env.permission.mode);
  if (approval.decision !== 'approve') {
    state.permission = { behavior: 'deny', decisionReason: reason, message: approval.reason ?? 'rejected' };
    const r = rejectionToolResult(state.toolUseId, approval.reason);
    return state.failed('denied', 'permission', r.content as string, r);
  }
  state.permission = { behavior: 'allow', decisionReason: reason };
  return undefined;
}

/** PreToolUse hooks: they may stop, block or replace the input (validated again). */
export async function preToolUse(run: ToolRun, hooks: CallHooks): Promise<ToolUseOutcome | undefined> {
  const { state, tool } = run;
  const pre = await hooks.preToolUse();
  if (run.controller.signal.aborted) return state.interrupted('It was stopped before it ran.');
  if (pre.block) {
    return state.failed('denied', 'hook', `PreToolUse hook blocked this ${tool.name} call: ${pre.block.reason}`);
  }
  run.hookDecision = pre.decision;
  if (pre.updatedInput === undefined) return undefined;
  return acceptInput(run, pre.updatedInput, 'decide', 'input replaced by a PreToolUse hook');
}

/** The permission decision (with the hooks' say); an allow may replace the input (validated again). */
export async function permit(run: ToolRun): Promise<ToolUseOutcome | undefined> {
  let decision: PermissionDecision;
  try {
    decision = await decidePermission(run.tool, run.data, run.ctx, run.hookDecision);
  } catch (e) {
    decision = {
      behavior: 'deny',
      message: `Permission check failed: ${errMessage(e)}`,
      decisionReason: { type: 'other', reason: 'permission engine error' },
    };
  }
  const stop = settle(run, decision);
  if (stop) return stop;
  // What the decision looked at: the file tools open only that (src/files/safeFs.ts).
  const checked = pathsCheckedBy(decision);
  if (checked) run.ctx.permittedPaths = checked;
  if (decision.behavior !== 'allow' || decision.updatedInput === undefined) return undefined;
  return acceptInput(run, decision.updatedInput, 'report', 'input replaced by the permission check');
}

/**
 * Right before call(): not aborted; in phase 'pre' the run stops with status 'ready' (the
 * scheduler runs the call itself, a child workflow; phase 'post' continues from here); the
 * scheduler's beforeCall (its execution ledger) must succeed.
 */
export async function readyToCall(run: ToolRun): Promise<ToolUseOutcome | undefined> {
  const { state, env } = run;
  if (run.controller.signal.aborted) return state.interrupted('It was stopped before it ran.');
  if (env.phase?.kind === 'pre') {
    return state.outcome('ready', {
      ready: {
        input: run.data,
        context: [...state.context],
        notices: [...state.hookNotices],
        hookRuns: state.hookRuns.map(trimRun),
        ...(state.permission ? { permission: state.permission } : {}),
      },
    });
  }
  if (!env.beforeCall) return undefined;
  try {
    await env.beforeCall();
  } catch (e) {
    return state.failed(
      'error',
      'call',
      `Error calling tool ${run.tool.name}: could not record the call before running it: ${errMessage(e)}`,
    );
  }
  return undefined;
}
