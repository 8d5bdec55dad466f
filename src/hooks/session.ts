// Running the hooks of a session-level event (SessionStart, UserPromptSubmit, Stop, SubagentStart, SubagentStop,
// SessionEnd, Notification): the matched hooks run in parallel; what their answers mean for the
// session is decided in src/core/hooks.ts.
import { hooksFor } from './config';
import { runOne, type HookRunEnv } from './run';
import type { HookRun, SessionHookEventName, SessionHookInput } from './types';

/** The value an event's matcher is compared with. */
export function matchQueryOf(event: SessionHookEventName, input: Record<string, unknown>): string {
  if (event === 'SessionStart') return String(input.source ?? '');
  if (event === 'SessionEnd') return String(input.reason ?? '');
  if (event === 'Notification') return String(input.notification_type ?? '');
  if (event === 'SubagentStart' || event === 'SubagentStop') return String(input.agent_type ?? '');
  return '';
}

export async function runSessionEventHooks(input: SessionHookInput, env: HookRunEnv): Promise<HookRun[]> {
  const event = input.hook_event_name;
  const matched = hooksFor(env.config, event, matchQueryOf(event, input));
  if (matched.length === 0) return [];
  return Promise.all(matched.map((h) => runOne(h, event, input, env)));
}
