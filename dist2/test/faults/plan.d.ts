import type { MessageSpec, MessagesRequest, ToolUseSpec } from '../support/fakeAnthropic';
export declare const SESSION_MARK = "fault-session";
export type EffectKind = 'bash' | 'count' | 'idem' | 'write';
export interface FaultSession {
    name: string;
    /** The session's working directory: its ledger files live here. */
    dir: string;
}
export interface Pacing {
    /** Delay before each SSE event of a model answer. */
    eventDelayMs: number;
    /** How long each tool call takes after its side effect. */
    toolMs: number;
}
/** The session named in the first user message (`[fault-session NAME]`), if any. */
export declare function sessionNameOf(request: MessagesRequest): string | undefined;
/** 0-based turn index: how many assistant messages the request already holds. */
export declare function turnOf(request: MessagesRequest): number;
export declare function toolUseId(session: string, turn: number, k: number): string;
export declare const ledgerFile: (s: FaultSession, kind: Exclude<EffectKind, "write">) => string;
export declare const writeFileFor: (s: FaultSession, id: string) => string;
/** The tool calls of a crash session's turn `turn` (not the last turn). */
export declare function crashTurnCalls(s: FaultSession, turn: number, pacing: Pacing): ToolUseSpec[];
/** The scripted answer for a crash session's turn: tool calls, or the final text when `last`. */
export declare function crashTurn(s: FaultSession, turn: number, last: boolean, pacing: Pacing): MessageSpec;
/** The effect kind a crash-session tool_use counts in (from its input), or undefined (not a ledger call). */
export declare function effectKindOf(block: {
    name: string;
    input: unknown;
}): EffectKind | undefined;
export declare const IDEMPOTENT: Record<EffectKind, boolean>;
