import type { Client } from '@temporalio/client';
import type { LoadedDataConverter, Payload } from '@temporalio/common';
export declare function converterOf(client: Client): LoadedDataConverter;
export declare function decodePayload<T>(converter: LoadedDataConverter, payload: Payload): Promise<T>;
