/** The session-level events every case captures on both sides. */
export declare const SESSION_EVENTS: string[];
/** Reference fields durable-agent does not send (docs/hooks.md "Differences"). */
export declare const REFERENCE_ONLY_FIELDS: Set<string>;
/** Reference transcript line keys durable-agent does not write (docs/hooks.md). */
export declare const REFERENCE_ONLY_LINE_KEYS: Set<string>;
export interface SessionSide {
    /** Hook inputs per event, in firing order. */
    inputs: Record<string, Array<Record<string, unknown>>>;
    /** The transcript file's lines at the end of the session (from the last hook input's transcript_path). */
    transcript: Array<Record<string, unknown>>;
}
export declare function readTranscript(inputs: Record<string, Array<Record<string, unknown>>>): Array<Record<string, unknown>>;
/** The conversation's shape: one entry per message (the reference's per-block lines merged), `user:text`, `assistant:tool_use#id,…`. */
export declare function transcriptShape(lines: ReadonlyArray<Record<string, unknown>>): string[];
export interface SessionDiff {
    aspect: 'session hook ran' | 'session hook input' | 'transcript';
    text: string;
}
export declare function compareSession(ref: SessionSide, ours: SessionSide): SessionDiff[];
