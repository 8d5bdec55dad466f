// Memory (CLAUDE.md) in the conversation: the reference hands it to the model as a
// `<system-reminder>` before the user's first message (its "user context"), not in the system
// prompt, so it enters the transcript once and is not resent with every model call's input. Pure.

/** What a session carries of its memory: the reminder text, its files and its hash. */
export interface SessionMemory {
  /** The files loaded, in order (imports after their importer). */
  files: string[];
  /** The `<system-reminder>` block (src/memory/claudeMd.ts memoryReminder). */
  text: string;
  /** sha256 of `text`: what the audit and status show instead of the text. */
  sha256: string;
}

/** The first user message: the memory reminder, then the prompt. */
export function firstMessage(prompt: string, memory: SessionMemory | undefined): string {
  return memory && memory.text ? `${memory.text}\n\n${prompt}` : prompt;
}
