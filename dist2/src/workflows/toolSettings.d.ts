import type { StoredToolSettings, ToolSessionInput } from '../calls/tools';
import type { SessionInput, TurnWorkflowInput } from './definitions';
/** The settings the session stores: exactly what its turns would otherwise put inline in every tool activity's input. */
export declare function storedToolSettings(input: SessionInput): StoredToolSettings;
/** The session as the turn's tool activities see it: by reference when the session stored its settings, else whole. */
export declare function toolSession(input: TurnWorkflowInput): ToolSessionInput;
