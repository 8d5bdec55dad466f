// transcript_path: the conversation so far as a JSONL file in the reference's transcript format
// (one object per line: type user/assistant, message, uuid, parentUuid, sessionId, timestamp, cwd…),
// materialized from the content-addressed message store before a hook runs.
import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Message } from '../engine/messages';

export interface TranscriptLine {
  parentUuid: string | null;
  isSidechain: boolean;
  userType: 'external';
  cwd: string;
  sessionId: string;
  version: string;
  type: 'user' | 'assistant';
  message: { role: 'user' | 'assistant'; content: unknown };
  uuid: string;
  timestamp: string;
}

/** A uuid-shaped id, stable for a message's position in a session (same file on every rewrite). */
function stableUuid(sessionId: string, index: number): string {
  const h = createHash('sha256').update(`${sessionId}\0${index}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function transcriptLines(messages: readonly Message[], opts: { sessionId: string; cwd: string; now?: Date; version?: string }): TranscriptLine[] {
  const ts = (opts.now ?? new Date()).toISOString();
  let parent: string | null = null;
  return messages.map((m, i) => {
    const uuid = stableUuid(opts.sessionId, i);
    const line: TranscriptLine = {
      parentUuid: parent,
      isSidechain: false,
      userType: 'external',
      cwd: opts.cwd,
      sessionId: opts.sessionId,
      version: opts.version ?? 'durable-agent',
      type: m.role,
      message: { role: m.role, content: m.content },
      uuid,
      timestamp: ts,
    };
    parent = uuid;
    return line;
  });
}

/** Where a session's transcript file lives: `<storeDir>/transcripts/<session>.jsonl`. */
export function transcriptPathFor(storeDir: string, sessionId: string): string {
  return join(storeDir, 'transcripts', `${sessionId.replace(/[^A-Za-z0-9_.-]/g, '_')}.jsonl`);
}

/** Writes the file whole (temp file + rename, so a hook never reads half a transcript). */
export async function writeTranscriptFile(path: string, messages: readonly Message[], opts: { sessionId: string; cwd: string }): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  const body = transcriptLines(messages, opts).map((l) => JSON.stringify(l)).join('\n');
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, body ? `${body}\n` : '');
  await rename(tmp, path);
  return path;
}
