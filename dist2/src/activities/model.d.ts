import { type CallModelInput, type ModelCallOutcome, type ModelDeps } from '../calls/model';
import type { Message } from '../engine/messages';
import { type MessageByRef } from '../engine/payloads';
export declare function createModelActivities(deps: ModelDeps): {
    callModel: (input: CallModelInput) => Promise<ModelCallOutcome>;
    appendTranscript: (input: {
        head: string | null;
        messages: MessageByRef[];
    }) => Promise<string | null>;
    loadTranscript: (input: {
        head: string | null;
    }) => Promise<Message[]>;
};
