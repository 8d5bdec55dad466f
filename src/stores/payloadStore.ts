// Tool result blocks kept OUTSIDE workflow payloads (invariant 11): the tool activity stores the
// block it produced and returns its reference with a preview; the turn appends the results to the
// transcript by reference. Content-addressed, so a retried store is idempotent and two sessions
// (or a reused workflow id) never overwrite each other's blocks.
import type { ToolResultBlockParam } from '../core/apiMessages';
import { CONTENT_HASH, contentHashOf, getVerified, hashOf, MissingBlobError, type BlobStore } from './messageStore';

const TOOL_RESULT_REF = new RegExp(`^toolresult-${CONTENT_HASH}$`);

export class PayloadStore {
  /** The tool results this worker stored or read last, by reference (the next model call reads them back: issue 33). */
  private readonly recent = new Map<string, string>();
  constructor(
    private readonly blobs: BlobStore,
    private readonly recentLimit = 64,
  ) {}

  async putToolResult(block: ToolResultBlockParam): Promise<string> {
    const data = JSON.stringify(block);
    const key = `toolresult-${contentHashOf(data)}`;
    if ((await this.blobs.get(key)) === undefined) await this.blobs.put(key, data);
    this.keep(key, data);
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
    const data =
      this.recent.get(ref) ?? (await getVerified(this.blobs, ref, ref.slice('toolresult-'.length), 'tool result'));
    if (data === undefined) throw new MissingBlobError('tool result', ref, this.blobs);
    this.keep(ref, data);
    // A parse per read: each caller gets its own block.
    return JSON.parse(data) as ToolResultBlockParam;
  }

  /** Content-addressed: a kept result is the content its reference names, whatever the store holds now. */
  private keep(ref: string, data: string): void {
    this.recent.delete(ref);
    this.recent.set(ref, data);
    if (this.recent.size > this.recentLimit) {
      const oldest = this.recent.keys().next().value;
      if (oldest !== undefined) this.recent.delete(oldest);
    }
  }
}
