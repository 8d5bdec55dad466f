// The payload codec of encrypted deployments (docs/encryption.md): every payload a client or
// worker sends is serialized whole (metadata and data) and sealed with AES-256-GCM under the
// current key; its metadata says `binary/encrypted` and the key's id. Decoding opens a payload
// with the key it names (any key of the ring: rotation) and leaves other payloads alone, so
// histories written before encryption was turned on stay readable. A codec without keys encrypts
// nothing and turns an encrypted payload into an error that names the key it needs.
// Codecs run in the worker and the client, outside the workflow sandbox: the bundle never sees keys.
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { open, seal } from '../../encryption/aead';
import { configuredKeyRing, type EncryptionSetting, type KeyRing } from '../../encryption/keys';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const KEY_ID_METADATA = 'encryption-key-id';

const utf8 = new TextEncoder();
const text = (b: Uint8Array | null | undefined): string => (b ? new TextDecoder().decode(b) : '');

export class EncryptionCodec implements PayloadCodec {
  constructor(readonly ring: KeyRing | undefined) {}

  async encode(payloads: Payload[]): Promise<Payload[]> {
    const ring = this.ring;
    if (!ring) return payloads;
    return payloads.map((p) => {
      const { keyId, bytes } = seal(ring, temporal.api.common.v1.Payload.encode(p).finish());
      return {
        metadata: { encoding: utf8.encode(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: utf8.encode(keyId) },
        data: bytes,
      };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((p) => {
      if (text(p.metadata?.encoding) !== ENCRYPTED_ENCODING) return p;
      const keyId = text(p.metadata?.[KEY_ID_METADATA]) || '(none named)';
      const plain = open(this.ring, keyId, p.data ?? new Uint8Array(), 'a payload');
      return temporal.api.common.v1.Payload.decode(plain) as Payload;
    });
  }
}

/**
 * The codecs of a client or worker: always the encryption codec (with the configured keys, or none:
 * then it encrypts nothing and an encrypted payload is an error naming its key, not "unknown encoding").
 */
export function encryptionCodecs(setting?: EncryptionSetting): PayloadCodec[] {
  return [new EncryptionCodec(configuredKeyRing(setting))];
}
