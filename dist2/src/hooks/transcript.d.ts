import type { Message } from '../engine/messages';
export interface TranscriptLine {
    parentUuid: string | null;
    isSidechain: boolean;
    userType: 'external';
    cwd: string;
    sessionId: string;
    version: string;
    type: 'user' | 'assistant' | 'attachment';
    /** user/assistant lines. */
    message?: {
        role: 'user' | 'assistant';
        content: unknown;
    };
    /** A hook's added context, as the reference records it (`hook_additional_context`). */
    attachment?: {
        type: 'hook_additional_context';
        content: string[];
        hookName: string;
        hookEvent: string;
    };
    /** A message the session wrote, not the user (a Stop hook's feedback), as the reference marks it. */
    isMeta?: true;
    uuid: string;
    timestamp: string;
}
/**
 * The reference's lines for the messages: the prompt without the CLAUDE.md reminder the first
 * message carries (the reference keeps memory out of its transcript), a hook's added context as an
 * `attachment` line, a Stop hook's feedback as a user line with `isMeta: true`.
 */
export declare function transcriptLines(messages: readonly Message[], opts: {
    sessionId: string;
    cwd: string;
    now?: Date;
    version?: string;
}): TranscriptLine[];
/** Where a session's transcript file lives: `<storeDir>/transcripts/<session>.jsonl`. */
export declare function transcriptPathFor(storeDir: string, sessionId: string): string;
/** Writes the file whole (temp file + rename, so a hook never reads half a transcript). */
export declare function writeTranscriptFile(path: string, messages: readonly Message[], opts: {
    sessionId: string;
    cwd: string;
}): Promise<string>;
