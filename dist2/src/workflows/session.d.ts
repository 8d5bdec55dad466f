import { type SessionCarry, type SessionInput, type SessionResult } from './definitions';
export declare function sessionWorkflow(input: SessionInput, carry?: SessionCarry): Promise<SessionResult>;
