// What one tool_use gathers on its way through the pipeline — the input as it stands, hook notices
// and runs, text for the result, the permission answer, a hook's stop — and how any stage ends the
// run: an outcome that carries all of it.
import type { ToolResultBlockParam, ToolUseBlock } from '../../core/apiMessages';
import type { PostToolUseHooksResult } from '../../hooks/run';
import type { HookRun } from '../../hooks/types';
import { appendToToolResult, errorToolResult, interruptedToolResult } from './resultBlocks';
import { trimRun } from './outcomeRecords';
import type { FailureStage, ToolUseOutcome, ToolUseStatus } from './types';

export class RunState {
  readonly startedAt = Date.now();
  readonly toolUseId: string;
  readonly toolName: string;
  /** The input actually used (after hooks' or the permission check's updatedInput). */
  input: unknown;
  readonly hookNotices: string[] = [];
  readonly hookRuns: HookRun[] = [];
  /** Text appended to the result the model sees (hooks' additional context and feedback). */
  readonly context: string[] = [];
  permission: ToolUseOutcome['permission'];
  ask: ToolUseOutcome['ask'];
  stop: ToolUseOutcome['stop'];

  constructor(block: ToolUseBlock) {
    this.toolUseId = typeof block?.id === 'string' ? block.id : String(block?.id);
    this.toolName = typeof block?.name === 'string' ? block.name : String(block?.name);
    this.input = block?.input as unknown;
  }

  /** The run ends here with this status. */
  outcome(status: ToolUseStatus, extra: Partial<ToolUseOutcome>): ToolUseOutcome {
    const o: ToolUseOutcome = {
      toolUseId: this.toolUseId,
      toolName: this.toolName,
      status,
      contextModifiers: [],
      newMessages: [],
      input: this.input,
      hookNotices: this.hookNotices,
      startedAt: this.startedAt,
      endedAt: Date.now(),
      ...extra,
    };
    if (this.hookRuns.length) o.hookRuns = this.hookRuns.map(trimRun);
    if (this.permission && !o.permission) o.permission = this.permission;
    if (this.ask && !o.ask) o.ask = this.ask;
    if (this.stop) o.stop = this.stop;
    return o;
  }

  /** The result with the hooks' text appended. */
  withContext(result: ToolResultBlockParam): ToolResultBlockParam {
    let r = result;
    for (const c of this.context) r = appendToToolResult(r, c);
    return r;
  }

  /** The run ends with an is_error result (the message, unless a result is given). */
  failed(status: ToolUseStatus, stage: FailureStage, message: string, result?: ToolResultBlockParam): ToolUseOutcome {
    return this.outcome(status, {
      result: this.withContext(result ?? errorToolResult(this.toolUseId, message)),
      failure: { stage, message },
    });
  }

  interrupted(detail?: string): ToolUseOutcome {
    return this.failed('interrupted', 'aborted', interruptedToolResult(this.toolUseId, detail).content as string);
  }

  /** After the call: feedback, context and a stop from PostToolUse or PostToolUseFailure hooks. */
  takeAfterCall(post: PostToolUseHooksResult, event: string): void {
    this.hookRuns.push(...post.runs);
    this.hookNotices.push(...post.notices);
    if (post.stop && !this.stop) this.stop = post.stop;
    for (const f of post.feedback) this.context.push(`${event} hook feedback (blocking): ${f.reason}`);
    for (const c of post.additionalContext) this.context.push(`${event} hook additional context: ${c}`);
  }
}
