import type { Payload, PayloadCodec } from '@temporalio/common';
export declare const SCRAMBLED_ENCODING = "binary/x-durable-agent-test-xor";
export declare class ScramblingCodec implements PayloadCodec {
    /** How many payloads this codec decoded (the test checks the audit used it). */
    decoded: number;
    encode(payloads: Payload[]): Promise<Payload[]>;
    decode(payloads: Payload[]): Promise<Payload[]>;
}
