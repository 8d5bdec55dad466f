// What the fault suite's sessions do, as pure data: the scripted model's answer for a session's
// n-th turn, and the tool calls whose side effects the checker later counts.
//
// Every crash session cycles through four kinds of turns, each streamed slowly enough that a kill
// can land inside the stream:
//   0  Bash `echo <tool_use_id> >> bash.log; sleep`        (not idempotent: appends)
//   1  AppendSlow counts.log (not idempotent) + AppendSlow idem.log (idempotent)
//   2  Write approved-<id>.txt                               (asks: waits for an approval)
//   3  Bash + AppendSlow counts.log in one message
// and a last turn that only says it is done. Tool ids are `toolu_<session>_t<turn>_<k>`, so a
// retried model call for the same turn names the same calls.
import type { MessageSpec, MessagesRequest, ToolUseSpec } from '../support/fakeAnthropic';

export const SESSION_MARK = 'fault-session';

export type EffectKind = 'bash' | 'count' | 'idem' | 'write';

export interface FaultSession {
  name: string;
  /** The session's working directory: its ledger files live here. */
  dir: string;
}

export interface Pacing {
  /** Delay before each SSE event of a model answer. */
  eventDelayMs: number;
  /** How long each tool call takes after its side effect. */
  toolMs: number;
}

/** The session named in the first user message (`[fault-session NAME]`), if any. */
export function sessionNameOf(request: MessagesRequest): string | undefined {
  const first = request.messages[0];
  if (!first) return undefined;
  const text =
    typeof first.content === 'string'
      ? first.content
      : first.content.map((b) => (typeof b.text === 'string' ? b.text : '')).join('\n');
  return new RegExp(`\\[${SESSION_MARK} ([A-Za-z0-9-]+)\\]`).exec(text)?.[1];
}

/** 0-based turn index: how many assistant messages the request already holds. */
export function turnOf(request: MessagesRequest): number {
  return request.messages.filter((m) => m.role === 'assistant').length;
}

export function toolUseId(session: string, turn: number, k: number): string {
  return `toolu_${session.replace(/-/g, '')}_t${turn}_${k}`;
}

export const ledgerFile = (s: FaultSession, kind: Exclude<EffectKind, 'write'>): string => `${s.dir}/${kind}.log`;
export const writeFileFor = (s: FaultSession, id: string): string => `${s.dir}/approved-${id}.txt`;

/** The tool calls of a crash session's turn `turn` (not the last turn). */
export function crashTurnCalls(s: FaultSession, turn: number, pacing: Pacing): ToolUseSpec[] {
  const id = (k: number): string => toolUseId(s.name, turn, k);
  const sleepS = (pacing.toolMs / 1000).toFixed(2);
  const bash = (k: number): ToolUseSpec => ({
    type: 'tool_use',
    id: id(k),
    name: 'Bash',
    input: {
      command: `echo ${id(k)} >> ${ledgerFile(s, 'bash')} && sleep ${sleepS}`,
      description: 'Record this call in the ledger',
    },
  });
  const count = (k: number): ToolUseSpec => ({
    type: 'tool_use',
    id: id(k),
    name: 'AppendSlow',
    input: { file: ledgerFile(s, 'count'), text: id(k), delayMs: pacing.toolMs, idempotent: false },
  });
  const idem = (k: number): ToolUseSpec => ({
    type: 'tool_use',
    id: id(k),
    name: 'AppendSlow',
    input: { file: ledgerFile(s, 'idem'), text: id(k), delayMs: pacing.toolMs, idempotent: true },
  });
  switch (turn % 4) {
    case 0:
      return [bash(0)];
    case 1:
      return [count(0), idem(1)];
    case 2:
      return [
        {
          type: 'tool_use',
          id: id(0),
          name: 'Write',
          input: { file_path: writeFileFor(s, id(0)), content: `${id(0)}\n` },
        },
      ];
    default:
      return [bash(0), count(1)];
  }
}

/** The scripted answer for a crash session's turn: tool calls, or the final text when `last`. */
export function crashTurn(s: FaultSession, turn: number, last: boolean, pacing: Pacing): MessageSpec {
  const text = last
    ? `Session ${s.name} is done after ${turn} turns; every call is accounted for.`
    : `Turn ${turn} of session ${s.name}: recording the next calls in the ledgers now.`;
  return {
    content: [{ type: 'text', text }, ...(last ? [] : crashTurnCalls(s, turn, pacing))],
    delayMs: pacing.eventDelayMs,
    textChunkSize: 6,
    jsonChunkSize: 24,
  };
}

/** The effect kind a crash-session tool_use counts in (from its input), or undefined (not a ledger call). */
export function effectKindOf(block: { name: string; input: unknown }): EffectKind | undefined {
  const input = (block.input ?? {}) as Record<string, unknown>;
  if (block.name === 'Bash' && typeof input.command === 'string' && input.command.includes('bash.log')) return 'bash';
  if (block.name === 'AppendSlow' && typeof input.file === 'string') {
    if (input.file.endsWith('/count.log')) return 'count';
    if (input.file.endsWith('/idem.log')) return 'idem';
  }
  if (block.name === 'Write' && typeof input.file_path === 'string' && input.file_path.includes('/approved-'))
    return 'write';
  return undefined;
}

export const IDEMPOTENT: Record<EffectKind, boolean> = { bash: false, count: false, idem: true, write: true };
