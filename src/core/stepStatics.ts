// A turn child's static step inputs by reference (issue 33). What a model call's input carries that
// stays the same from step to step of one child — the settings reference, the
// deny rules, the context settings, the tool session and context it describes blocks with — is
// stored once by the child's first model call (content-addressed: a retry stores the same blob) and
// named by its key (`stepstatics-<hash>`) in the later calls' inputs, and in the tool calls'
// inputs in place of their tool session and context. Pure: the turn workflow decides what to send
// (it keeps the key it learnt and the JSON it stands for), the activities resolve it.

import { ReadFilesMemo } from './modelStep';

/** The model call's input fields stored by reference; their JSON names the blob. */
export const STEP_STATIC_FIELDS = [
  // Not `settings` (60 bytes): the model call's span and metrics name the model from the input.
  'settingsRef',
  'toolNames',
  'denyRules',
  'agents',
  'contextSettings',
  'streamToolUses',
  'describeWith',
  'mcp',
] as const;

export type StepStaticField = (typeof STEP_STATIC_FIELDS)[number];

/** The blob: the static fields of a model call's input, as the first call of the child sent them. */
export type StepStatics = Partial<Record<StepStaticField, unknown>>;

/** The static fields of `input` and the rest. */
export function splitStatics<T extends object>(input: T): { statics: StepStatics; rest: Partial<T> } {
  const statics: StepStatics = {};
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if ((STEP_STATIC_FIELDS as readonly string[]).includes(k)) {
      if (v !== undefined) statics[k as StepStaticField] = v;
    } else rest[k] = v;
  }
  return { statics, rest: rest as Partial<T> };
}

/**
 * What the turn knows of its stored statics: the key the first model call answered (in its streamed
 * signal or its result) and the JSON of the statics it was sent. Later calls whose statics have the
 * same JSON send the key instead; tool calls whose session and context are the blob's send it too.
 */
export class StepStaticsMemo {
  /** The child's read-file states its model calls stored (issue 33): a step's re-read entries stay out of the next call's input. */
  readonly readFiles = new ReadFilesMemo();
  private known: { ref: string; json: string; tool: string | undefined } | undefined;
  private sent: { json: string; tool: string | undefined } | undefined;
  /** The last tool call's session and context, and the answer (a step's calls share them: one JSON each). */
  private last: { session: unknown; context: unknown; ref: string | undefined } | undefined;

  /** The model call's input: its static fields replaced by `staticsRef` when they are the stored ones. */
  modelInput<T extends object>(input: T): T | (Partial<T> & { staticsRef: string }) {
    const { statics, rest } = splitStatics(input);
    const json = JSON.stringify(statics);
    if (this.known && this.known.json === json) return { ...rest, staticsRef: this.known.ref };
    const describe = statics.describeWith as { session?: unknown; context?: unknown } | undefined;
    this.sent = { json, tool: describe ? toolJson(describe.session, describe.context) : undefined };
    return input;
  }

  /** The key a model call answered for the statics it was sent inline. */
  learn(ref: string | undefined): void {
    if (!ref || !this.sent || this.known?.ref === ref) return;
    this.known = { ref, ...this.sent };
    this.last = undefined;
  }

  /** The key to send a tool call instead of its session and context: only when the blob holds exactly these. */
  toolRef(session: unknown, context: unknown): string | undefined {
    const known = this.known;
    if (!known?.tool) return undefined;
    const last = this.last;
    if (last && last.session === session && last.context === context) return last.ref;
    const ref = known.tool === toolJson(session, context) ? known.ref : undefined;
    this.last = { session, context, ref };
    return ref;
  }
}

function toolJson(session: unknown, context: unknown): string {
  return JSON.stringify([session, context]);
}

/**
 * What a model call's answer stores for its tool calls (issue 33): the key of the step's statics, the
 * answer's transcript node and the read-file state the calls read. Kept in the statics' store under
 * `answer` (a blob of its own: `stepstatics-<hash>`), so that a tool call sends one key and its id.
 */
export interface StepAnswer {
  statics: string;
  messageRef: string;
  readFilesRef: string | null;
}

/** The answer a stored blob holds, if it is one. */
export function stepAnswerOf(blob: StepStatics): StepAnswer | undefined {
  const a = (blob as { answer?: StepAnswer }).answer;
  return a && typeof a.statics === 'string' && typeof a.messageRef === 'string' ? a : undefined;
}
