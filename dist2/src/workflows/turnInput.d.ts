import type { agentHookFields } from '../engine/subagents';
import type { SessionCarry, SessionInput, TurnWorkflowInput } from './definitions';
/** The turn child's input: the session's settings and state as the turn needs them (key order is the recorded one). */
export declare function turnWorkflowInput(input: SessionInput, state: SessionCarry, run: {
    sessionId: string;
    turn: number;
    append: TurnWorkflowInput['append'];
    agentHooks: ReturnType<typeof agentHookFields> | undefined;
    toolSettingsRef: string | undefined;
}): TurnWorkflowInput;
