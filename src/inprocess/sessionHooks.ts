// An in-process session's session-level hooks (SessionStart, UserPromptSubmit, Stop, Notification…)
// as the engine's loop runs them (sessionRun.ts `LocalSessionRun`'s executor): the same core as the
// session workflow's hook activities, run in the project root; a failure is the hooks' own result.
import type { SessionExecutor } from '../core/session';
import { hookFailureRuns } from '../core/schedulerShared';
import { sessionHookRequest } from '../core/sessionHookSteps';
import type { LocalSessionStart } from './sessionStart';

type LocalHookRunner = Required<Pick<SessionExecutor, 'hasHooks' | 'runHooks'>>;

export function localSessionHooks(
  run: Pick<LocalSessionStart, 'input' | 'sessionId' | 'deps' | 'session' | 'state'>,
): LocalHookRunner {
  const { input, sessionId, deps, session, state } = run;
  return {
    hasHooks: (event) => {
      const list = (input.hooks as Record<string, unknown[] | undefined> | undefined)?.[event];
      return Array.isArray(list) && list.length > 0;
    },
    runHooks: async (event, fields, head) => {
      try {
        const r = await deps.runSessionHooks(
          sessionHookRequest(
            input,
            { sessionId, context: state.context, agentHookFields: session.agentHookFields },
            event,
            fields,
            head,
          ),
        );
        return r.runs;
      } catch (err) {
        return hookFailureRuns(event, err);
      }
    },
  };
}
