// A payload codec for tests: every payload is serialized and XOR-scrambled under its own
// encoding, as an encryption codec would. A client or worker without it cannot read what one with
// it wrote (the audit must say so instead of dropping it).
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

export const SCRAMBLED_ENCODING = 'binary/x-durable-agent-test-xor';
const KEY = 0x5a;

const xor = (bytes: Uint8Array): Uint8Array => Uint8Array.from(bytes, (b) => b ^ KEY);

export class ScramblingCodec implements PayloadCodec {
  /** How many payloads this codec decoded (the test checks the audit used it). */
  decoded = 0;

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((p) => ({
      metadata: { encoding: new TextEncoder().encode(SCRAMBLED_ENCODING) },
      data: xor(temporal.api.common.v1.Payload.encode(p).finish()),
    }));
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((p) => {
      const encoding = p.metadata?.encoding ? new TextDecoder().decode(p.metadata.encoding) : '';
      if (encoding !== SCRAMBLED_ENCODING || !p.data) return p;
      this.decoded++;
      return temporal.api.common.v1.Payload.decode(xor(p.data)) as Payload;
    });
  }
}
