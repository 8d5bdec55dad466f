// An in-process session's session-level hooks (SessionStart, UserPromptSubmit, Stop, Notification…)
// as the engine's loop runs them (sessionRun.ts `LocalSessionRun`'s executor): the same core as the
// session workflow's hook activities, run in the project root; a failure is the hooks' own result.
import type { SessionExecutor } from '../core/session';
import { hookFailureRuns } from '../core/schedulerShared';
import { hookProjectDir } from '../hooks/run';
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
        const r = await deps.runSessionHooks({
          event,
          sessionId,
          cwd: state.context.cwd,
          // Where the hooks run: the project root, never the agent's cwd (as the session workflow).
          projectDir: hookProjectDir(input.hookPins, state.context),
          ...(input.hookPins ? { hookPins: input.hookPins } : {}),
          ...(input.sandbox?.passEnv ? { passEnv: input.sandbox.passEnv } : {}),
          // In the session's sandbox, as the session workflow's hooks.
          sandbox: input.sandbox ?? {},
          additionalDirectories: state.context.additionalDirectories,
          permissionMode: input.permissionMode,
          head,
          hooks: input.hooks,
          fields,
          ...(session.agentHookFields ? { agentHookFields: session.agentHookFields } : {}),
        });
        return r.runs;
      } catch (err) {
        return hookFailureRuns(event, err);
      }
    },
  };
}
