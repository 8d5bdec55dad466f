// transcript_path: the conversation so far as a JSONL file in the reference's transcript format
// (one object per line: type user/assistant, message, uuid, parentUuid, sessionId, timestamp, cwd…),
// materialized from the content-addressed message store before a hook runs.
import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { splitMemoryReminder } from '../core/memoryReminder';
import type { Message } from '../core/apiMessages';
import { sessionFileName } from '../toolProtocol/resultStore';

export interface TranscriptLine {
  parentUuid: string | null;
  isSidechain: boolean;
  userType: 'external';
  cwd: string;
  sessionId: string;
  version: string;
  type: 'user' | 'assistant' | 'attachment';
  /** user/assistant lines. */
  message?: { role: 'user' | 'assistant'; content: unknown };
  /** A hook's added context, as the reference records it (`hook_additional_context`). */
  attachment?: { type: 'hook_additional_context'; content: string[]; hookName: string; hookEvent: string };
  /** A message the session wrote, not the user (a Stop hook's feedback), as the reference marks it. */
  isMeta?: true;
  uuid: string;
  timestamp: string;
}

/** `<Event> hook additional context: <text>`: the user messages src/core/session.ts adds for a hook's context. */
const HOOK_CONTEXT = /^(UserPromptSubmit|SessionStart|SubagentStart) hook additional context: ([\s\S]*)$/;

/** A uuid-shaped id, stable for a message's position in a session (same file on every rewrite). */
function stableUuid(sessionId: string, index: number): string {
  const h = createHash('sha256').update(`${sessionId}\0${index}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The reference's lines for the messages: the prompt without the CLAUDE.md reminder the first
 * message carries (the reference keeps memory out of its transcript), a hook's added context as an
 * `attachment` line, a Stop hook's feedback as a user line with `isMeta: true`.
 */
export function transcriptLines(
  messages: readonly Message[],
  opts: { sessionId: string; cwd: string; now?: Date; version?: string },
): TranscriptLine[] {
  const ts = (opts.now ?? new Date()).toISOString();
  let parent: string | null = null;
  const out: TranscriptLine[] = [];
  messages.forEach((m, i) => {
    let content: unknown = m.content;
    let extra: Partial<TranscriptLine> = { type: m.role };
    if (m.role === 'user' && typeof m.content === 'string') {
      const split = splitMemoryReminder(m.content);
      if (split.reminder !== undefined && split.prompt === '') return;
      content = split.prompt;
      const hook = HOOK_CONTEXT.exec(split.prompt);
      if (hook) {
        extra = {
          type: 'attachment',
          attachment: { type: 'hook_additional_context', content: [hook[2]!], hookName: hook[1]!, hookEvent: hook[1]! },
        };
      } else if (split.prompt.startsWith('Stop hook feedback:\n')) {
        extra = { type: 'user', isMeta: true };
      }
    }
    const uuid = stableUuid(opts.sessionId, i);
    out.push({
      parentUuid: parent,
      isSidechain: false,
      userType: 'external',
      cwd: opts.cwd,
      sessionId: opts.sessionId,
      version: opts.version ?? 'durable-agent',
      type: m.role,
      ...(extra.type === 'attachment' ? {} : { message: { role: m.role, content } }),
      ...extra,
      uuid,
      timestamp: ts,
    } as TranscriptLine);
    parent = uuid;
  });
  return out;
}

/**
 * Where a session's transcript file lives: `<storeDir>/transcripts/<one name per id>.jsonl` — never
 * shared by two ids (`a/b` and `a_b`, a subagent `p/agent-x` and a session `p_agent-x`), whose hooks
 * would read each other's conversation (issue 30 round h, H-3).
 */
export function transcriptPathFor(storeDir: string, sessionId: string): string {
  return join(storeDir, 'transcripts', `${sessionFileName(sessionId)}.jsonl`);
}

/** Writes the file whole (temp file + rename, so a hook never reads half a transcript). */
export async function writeTranscriptFile(
  path: string,
  messages: readonly Message[],
  opts: { sessionId: string; cwd: string },
): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  const body = transcriptLines(messages, opts)
    .map((l) => JSON.stringify(l))
    .join('\n');
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, body ? `${body}\n` : '');
  await rename(tmp, path);
  return path;
}
