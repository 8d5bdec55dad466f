// The CLI's side of terminal-safe text: the pure rules live in src/core/terminalText.ts (the worker's
// log uses them too); here, the guard on this process's stderr.
import { StringDecoder } from 'node:string_decoder';
import { terminalSafe } from '../core/terminalText';

export { terminalLine, terminalSafe, type TerminalSafeOptions } from '../core/terminalText';

/**
 * Makes every write to this process's stderr terminal-safe (newlines and tabs kept): the CLI's own
 * warnings, and what runs inside the process — the worker's log (Temporal's logger writes a
 * message as given, and notices carry hook output, file names, sandbox reports: issue 30, L6),
 * a library's warning. The one place that holds for prints nobody wrapped (round k, K5). stdout is
 * left alone: its machine formats are exact, and its human prints call terminalSafe themselves.
 */
export function guardStderr(stream: NodeJS.WriteStream = process.stderr): void {
  const marked = stream as NodeJS.WriteStream & { terminalSafeGuard?: true };
  if (marked.terminalSafeGuard) return;
  marked.terminalSafeGuard = true;
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  const decoder = new StringDecoder('utf8'); // a character split across two Buffers stays whole
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === 'string') return write(terminalSafe(chunk), ...rest);
    if (chunk instanceof Uint8Array) {
      // A Buffer's encoding argument does not apply; the callback, if any, is the last argument.
      const cb = rest.find((r) => typeof r === 'function');
      return write(terminalSafe(decoder.write(Buffer.from(chunk))), ...(cb ? [cb] : []));
    }
    return write(chunk, ...rest);
  }) as typeof stream.write;
}
