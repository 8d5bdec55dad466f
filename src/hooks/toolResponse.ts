// `tool_response` in a PostToolUse hook's input, in the reference's shape where it differs from
// what our tool's call() returns. Bash: exactly the reference's `stdout`, `stderr`, `interrupted`,
// `isImage`, `noOutputExpected` (+ `persistedOutputPath`/`persistedOutputSize` when the output was
// stored whole). The reference, like our Bash, merges the two streams into `stdout` (`stderr` is
// ""), trailing newlines trimmed. Read: the reference's `{type: 'text', file: {filePath, content,
// numLines, startLine, totalLines}}` with the lines as in the file (no line numbers). Other tools:
// their own data object (docs/hooks.md).
function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Commands that print nothing when they succeed (the reference's list). */
const SILENT_COMMANDS = new Set(['mv', 'cp', 'rm', 'mkdir', 'rmdir', 'chmod', 'chown', 'chgrp', 'touch', 'ln', 'cd', 'export', 'unset', 'wait']);

/** Is every command of the line (split at `&&`, `||`, `;`, `|`, newlines) one that prints nothing? */
export function noOutputExpected(command: string): boolean {
  const parts = command.split(/&&|\|\||[;|\n]/).map((p) => p.trim());
  if (parts.length === 0 || parts.some((p) => p === '')) return false;
  return parts.every((p) => {
    const words = p.split(/\s+/).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
    return words.length > 0 && SILENT_COMMANDS.has(words[0]!);
  });
}

/** What the reference keeps of a persisted output in `stdout`. */
export const HOOK_STDOUT_MAX_CHARS = 30_000;

export function hookToolResponse(toolName: string, data: unknown, persisted?: { path: string; size: number }): unknown {
  if (toolName === 'Bash' && isObject(data)) {
    const output = (typeof data.output === 'string' ? data.output : '').replace(/\n+$/, '');
    return {
      stdout: persisted ? output.slice(0, HOOK_STDOUT_MAX_CHARS) : output,
      stderr: '',
      interrupted: data.interrupted === true || data.timedOut === true,
      isImage: false,
      noOutputExpected: typeof data.command === 'string' ? noOutputExpected(data.command) : false,
      ...(persisted ? { persistedOutputPath: persisted.path, persistedOutputSize: persisted.size } : {}),
    };
  }
  if (toolName === 'Read' && isObject(data) && typeof data.filePath === 'string') {
    // Our content is `cat -n` style (number, tab, line); the reference's is the lines themselves.
    const numbered = typeof data.content === 'string' ? data.content : '';
    const content = numbered === '' ? '' : numbered.split('\n').map((l) => l.replace(/^\s*\d+\t/, '')).join('\n');
    return { type: 'text', file: { filePath: data.filePath, content, numLines: data.numLines, startLine: data.startLine, totalLines: data.totalLines } };
  }
  return data;
}
