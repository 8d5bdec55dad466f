// Decoding a raw payload from the server the way this client was configured: its payload codecs
// (in reverse order), then its payload converter. Throws when it cannot (a codec the client lacks,
// a corrupt payload): callers decide what an unreadable payload means (the audit: a gap; `ls`: a note).
import type { Client } from '@temporalio/client';
import type { LoadedDataConverter, Payload } from '@temporalio/common';

export function converterOf(client: Client): LoadedDataConverter {
  return client.options.loadedDataConverter;
}

export async function decodePayload<T>(converter: LoadedDataConverter, payload: Payload): Promise<T> {
  let decoded = [payload];
  for (const codec of [...converter.payloadCodecs].reverse()) decoded = await codec.decode(decoded);
  return converter.payloadConverter.fromPayload<T>(decoded[0] as Payload);
}
