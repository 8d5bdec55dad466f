// Memory (CLAUDE.md) in the conversation: the reference hands it to the model as a
// `<system-reminder>` before the user's first message (its "user context"), not in the system
// prompt, so it enters the transcript once and is not resent with every model call's input. Pure.

/**
 * What a session carries of its memory: the reminder text (inline), or a reference to it in the
 * blob store (payloads by reference, invariant 11: a memory above MEMORY_INLINE_MAX_CHARS would
 * otherwise ride in every run's input and, for subagents, every turn's), its files and its hash.
 */
export interface SessionMemory {
  /** The files loaded, in order (imports after their importer). */
  files: string[];
  /** The `<system-reminder>` block (src/claudeMd/claudeMd.ts memoryReminder); absent when by reference. */
  text?: string;
  /** sha256 of the text: what the audit and status show instead of the text. */
  sha256: string;
  /** The blob holding the text (`memory-<sha256>`), when it travels by reference. */
  ref?: string;
  /** Length of the text, when by reference. */
  chars?: number;
}

/** A memory by reference, as the turn that sends the first message carries it to the model activity. */
export interface MemoryRef {
  ref: string;
  sha256: string;
  chars: number;
}

/** Above this many characters the client stores the memory text and the session carries a reference. */
export const MEMORY_INLINE_MAX_CHARS = 16_000;

/** The blob key of a memory text. */
export function memoryBlobKey(sha256: string): string {
  return `memory-${sha256}`;
}

/** The memory's reference, when it travels by one. */
export function memoryRefOf(memory: SessionMemory | undefined): MemoryRef | undefined {
  return memory?.ref && memory.text === undefined
    ? { ref: memory.ref, sha256: memory.sha256, chars: memory.chars ?? 0 }
    : undefined;
}

/** The first user message: the memory reminder, then the prompt (by reference: the model activity prepends it, see withMemory). */
export function firstMessage(prompt: string, memory: SessionMemory | undefined): string {
  return memory && memory.text ? `${memory.text}\n\n${prompt}` : prompt;
}

/** The appended messages with the memory text (loaded by reference) before the first user message's text, as firstMessage does. */
export function withMemoryText<M extends { role: string; content: unknown }>(append: readonly M[], text: string): M[] {
  const i = append.findIndex((m) => m.role === 'user' && typeof m.content === 'string');
  if (i < 0) return [{ role: 'user', content: text } as unknown as M, ...append];
  const out = [...append];
  out[i] = { ...out[i]!, content: `${text}\n\n${out[i]!.content as string}` };
  return out;
}

/** How memoryReminder (src/claudeMd/claudeMd.ts) opens and closes the reminder: splitMemoryReminder finds it by these. */
export const MEMORY_REMINDER_HEAD =
  "<system-reminder>\nAs you answer the user's questions, you can use the following context:\n# claudeMd\n";
export const MEMORY_REMINDER_TAIL =
  '\nIMPORTANT: this context may or may not be relevant to your tasks. You should not respond to this context unless it is highly relevant to your task.\n</system-reminder>';

/**
 * A first user message split into the memory reminder firstMessage/withMemoryText put before it
 * and the prompt the user typed: what UserPromptSubmit hooks and the transcript file show (the
 * reference keeps CLAUDE.md out of both).
 */
export function splitMemoryReminder(text: string): { reminder?: string; prompt: string } {
  if (!text.startsWith(MEMORY_REMINDER_HEAD)) return { prompt: text };
  const end = text.indexOf(MEMORY_REMINDER_TAIL);
  if (end < 0) return { prompt: text };
  const cut = end + MEMORY_REMINDER_TAIL.length;
  return { reminder: text.slice(0, cut), prompt: text.slice(cut).replace(/^\n\n/, '') };
}
