// The session loop's hook steps (core/session.ts `runSession`): running a session-level event's
// hooks through the executor and reading their answers, and UserPromptSubmit over the queued
// prompts. Every wait here is followed by the executor's `settle` (core/sessionEvents.ts): what
// handlers appended meanwhile is applied before the state is read again. Pure and deterministic.
import { decideSessionHooks, type SessionHookDecision, type SessionHookEventName } from './hooks';
import { sessionRootOf, type AgentContext, type HookPins } from './context';
import { splitMemoryReminder } from './memoryReminder';
import type { SessionExecutor } from './sessionExecutor';
import { END_REASONS, type SessionEnd, type SessionState } from './sessionState';

/** A fixed point of the loop: events appended since the last one are applied (none: nothing to do). */
export function settle(executor: SessionExecutor): void {
  executor.events?.settle();
}

/** Runs an event's hooks when any is configured and reads their answers (undefined: none ran). */
export async function sessionHooks(
  state: SessionState,
  executor: SessionExecutor,
  event: SessionHookEventName,
  fields: Record<string, unknown>,
): Promise<SessionHookDecision | undefined> {
  if (!executor.runHooks || !executor.hasHooks?.(event)) return undefined;
  const runs = await executor.runHooks(event, fields, state.head);
  settle(executor);
  if (runs.length === 0) return undefined;
  const d = decideSessionHooks(event, runs);
  if (d.notices.length) (state.hookNotices ??= []).push(...d.notices);
  if (state.hookNotices && state.hookNotices.length > 20) state.hookNotices.splice(0, state.hookNotices.length - 20);
  return d;
}

export function hookEnd(stop: { reason: string; hook: string }): SessionEnd {
  return { kind: 'end', status: 'stopped', endReason: END_REASONS.hookStop(stop.hook, stop.reason) };
}

/** The session is idle, waiting for a message: a Notification hook may page someone. */
export function idleNotification(): Record<string, unknown> {
  return { message: 'Claude is waiting for your input', notification_type: 'idle_prompt' };
}

/** A call waits for approval: the Notification hook's fields. */
export function approvalNotification(toolName: string): Record<string, unknown> {
  return { message: `Claude needs your permission to use ${toolName}`, notification_type: 'permission_prompt' };
}

/**
 * UserPromptSubmit on each prompt queued since the last check (a block drops it, additional context
 * goes with it). A message queued while the hooks ran (a follow-up, a task's notification) is kept
 * and checked in its turn when the executor `keepsLatePrompts`; without it the queue is replaced by
 * the checked prompts and that message is lost (the behaviour before).
 */
export async function checkPrompts(state: SessionState, executor: SessionExecutor): Promise<SessionEnd | undefined> {
  let checked = Math.min(state.promptsChecked ?? 0, state.pendingMessages.length);
  let blocked: string | undefined;
  while (checked < state.pendingMessages.length) {
    const upTo = state.pendingMessages.length;
    const kept = state.pendingMessages.slice(0, checked);
    for (const prompt of state.pendingMessages.slice(checked, upTo)) {
      // The prompt as the user wrote it: without the CLAUDE.md reminder the first message carries.
      const d = await sessionHooks(state, executor, 'UserPromptSubmit', {
        prompt: splitMemoryReminder(prompt).prompt,
      });
      settle(executor);
      if (d?.stop) return hookEnd(d.stop);
      if (d?.block) {
        blocked = d.block.reason;
        (state.hookNotices ??= []).push(`UserPromptSubmit hook blocked a prompt: ${d.block.reason}`);
        continue;
      }
      kept.push(prompt);
      if (d?.additionalContext.length)
        kept.push(...d.additionalContext.map((c) => `UserPromptSubmit hook additional context: ${c}`));
    }
    const late = executor.keepsLatePrompts?.() === true;
    state.pendingMessages.splice(0, late ? upTo : state.pendingMessages.length, ...kept);
    state.stopHookActive = false;
    checked = kept.length;
    if (!late) break;
  }
  // Every prompt blocked and no tool results to answer: the model has nothing to do.
  if (
    blocked !== undefined &&
    state.pendingMessages.length === 0 &&
    !state.hookContext?.length &&
    state.lastReason !== 'tool_use'
  ) {
    return { kind: 'end', status: 'stopped', endReason: END_REASONS.promptBlocked(blocked) };
  }
  return undefined;
}

/** What a session-level hook call reads of the session's input (both schedulers' inputs have it). */
export interface SessionHookSource<Sandbox extends { passEnv?: string[] }, Hooks, Mode> {
  hookPins?: HookPins;
  sandbox?: Sandbox;
  permissionMode: Mode;
  hooks?: Hooks;
}

/**
 * A session-level hook call's request, built once for the session workflow's activity and the
 * in-process runner: the hooks run from the project root, never the agent's cwd, in the session's
 * sandbox (`{}`: the default settings, as its tool calls get). New fields of an activity input change
 * no workflow command: histories recorded before them replay unchanged.
 */
export function sessionHookRequest<Sandbox extends { passEnv?: string[] }, Hooks, Mode, AgentFields>(
  input: SessionHookSource<Sandbox, Hooks, Mode>,
  run: { sessionId: string; context: AgentContext; agentHookFields: AgentFields | undefined },
  event: SessionHookEventName,
  fields: Record<string, unknown>,
  head: string | null,
) {
  const { context } = run;
  return {
    event,
    sessionId: run.sessionId,
    cwd: context.cwd,
    projectDir: input.hookPins?.projectDir ?? sessionRootOf(context),
    ...(input.hookPins ? { hookPins: input.hookPins } : {}),
    ...(input.sandbox?.passEnv ? { passEnv: input.sandbox.passEnv } : {}),
    sandbox: input.sandbox ?? ({} as Sandbox),
    additionalDirectories: context.additionalDirectories,
    permissionMode: input.permissionMode,
    head,
    hooks: input.hooks,
    fields,
    ...(run.agentHookFields ? { agentHookFields: run.agentHookFields } : {}),
  };
}
