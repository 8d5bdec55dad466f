// Tool result blocks kept OUTSIDE workflow payloads (invariant 11): the tool activity stores the
// block it produced and returns its reference with a preview; the turn appends the results to the
// transcript by reference. Content-addressed, so a retried store is idempotent and two sessions
// (or a reused workflow id) never overwrite each other's blocks.
import type { ToolResultBlockParam } from '../core/apiMessages';
import { CONTENT_HASH, contentHashOf, getVerified, hashOf, MissingBlobError, type BlobStore } from './messageStore';

const TOOL_RESULT_REF = new RegExp(`^toolresult-${CONTENT_HASH}$`);

export class PayloadStore {
  constructor(private readonly blobs: BlobStore) {}

  async putToolResult(block: ToolResultBlockParam): Promise<string> {
    const data = JSON.stringify(block);
    const key = `toolresult-${contentHashOf(data)}`;
    if ((await this.blobs.get(key)) === undefined) await this.blobs.put(key, data);
    return key;
  }

  /** A background task's whole output (the audit shows its hash and size): `taskoutput-<sha256>`. */
  async putTaskOutput(text: string): Promise<string> {
    const key = `taskoutput-${hashOf(text)}`;
    if ((await this.blobs.get(key)) === undefined) await this.blobs.put(key, text);
    return key;
  }

  async getToolResult(ref: string): Promise<ToolResultBlockParam> {
    if (!TOOL_RESULT_REF.test(ref)) throw new Error(`not a tool result reference: ${ref}`);
    const data = await getVerified(this.blobs, ref, ref.slice('toolresult-'.length), 'tool result');
    if (data === undefined) throw new MissingBlobError('tool result', ref, this.blobs);
    return JSON.parse(data) as ToolResultBlockParam;
  }
}
