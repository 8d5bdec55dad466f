// `tool_response` in a PostToolUse hook's input, in the reference's shape where it differs from
// what our tool's call() returns. Bash: the reference reports `stdout`, `stderr`, `interrupted`,
// `isImage`; our Bash merges the two streams in order, so `stdout` carries the merged output and
// `stderr` is empty (documented in docs/hooks.md). Our own fields are kept alongside.
function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

export function hookToolResponse(toolName: string, data: unknown): unknown {
  if (toolName === 'Bash' && isObject(data)) {
    const output = typeof data.output === 'string' ? data.output : '';
    return {
      ...data,
      stdout: output,
      stderr: '',
      interrupted: data.interrupted === true || data.timedOut === true,
      isImage: false,
    };
  }
  return data;
}
