// A turn child's static step inputs (core/stepStatics.ts), stored once per child by its first model
// call, content-addressed (`stepstatics-<hash>` of their JSON, messageStore.ts `contentHashOf`), so
// that later model calls and the tool calls carry the key instead of copies (issue 33). Workers keep the blobs they read in a small cache.
import { contentHashOf, hashNames, MissingBlobError, type BlobStore } from './messageStore';
import { stepAnswerOf, type StepAnswer, type StepStatics } from '../core/stepStatics';

export class StepStaticsStore {
  private cache = new Map<string, StepStatics>();
  constructor(
    private readonly blobs: BlobStore,
    private readonly cacheLimit = 64,
  ) {}

  /** Stores the statics; returns their key. Idempotent: same content, same key (a retried call stores nothing new). */
  async put(statics: StepStatics): Promise<string> {
    const data = JSON.stringify(statics);
    const key = `stepstatics-${contentHashOf(data)}`;
    if (!this.cache.has(key) && (await this.blobs.get(key)) === undefined) await this.blobs.put(key, data);
    this.remember(key, statics);
    return key;
  }

  async get(key: string): Promise<StepStatics> {
    const hit = this.cache.get(key);
    if (hit) return hit;
    const data = await this.blobs.get(key);
    if (data === undefined) throw new MissingBlobError("the turn's static step inputs", key, this.blobs);
    if (!key.startsWith('stepstatics-') || !hashNames(data, key.slice('stepstatics-'.length)))
      throw new Error(`the stored step inputs ${key} do not match their hash`);
    const parsed = JSON.parse(data) as StepStatics;
    this.remember(key, parsed);
    return parsed;
  }

  /**
   * The step inputs a tool call's `stepRef` names: the statics themselves, or a model call's answer
   * (issue 33) that names them by their key, with the answer's node and read files.
   */
  async resolve(key: string): Promise<{ statics: StepStatics; answer?: StepAnswer }> {
    const blob = await this.get(key);
    const answer = stepAnswerOf(blob);
    return answer ? { statics: await this.get(answer.statics), answer } : { statics: blob };
  }

  private remember(key: string, value: StepStatics): void {
    this.cache.delete(key);
    this.cache.set(key, value);
    if (this.cache.size > this.cacheLimit) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }
}
