// `tool_response` in a PostToolUse hook's input, in the reference's shape where it differs from
// what our tool's call() returns. Bash: exactly the reference's `stdout`, `stderr`, `interrupted`,
// `isImage`, `noOutputExpected` (+ `persistedOutputPath`/`persistedOutputSize` when the output was
// stored whole). The reference, like our Bash, merges the two streams into `stdout` (`stderr` is
// ""), trailing newlines trimmed. Read: the reference's `{type: 'text', file: {filePath, content,
// numLines, startLine, totalLines}}` with the lines as in the file (no line numbers). Write:
// `{type, filePath, content, structuredPatch, originalFile, userModified}`; Edit: `{filePath,
// oldString, newString, originalFile, structuredPatch, userModified, replaceAll}` (the tools add
// originalFile and structuredPatch to their data when a PostToolUse hook will see the call).
// Agent: `{status, prompt, agentId, agentType, content: [{type: 'text', text}], resolvedModel,
// totalDurationMs, totalTokens, totalToolUseCount, usage}` (+ our endReason, turns).
// MCP tools (`mcp__…`): what the model gets, as the reference (src/mcp/content.ts): the text
// blocks, or structuredContent's JSON. Other tools: their own data object (docs/hooks.md).
import { mcpReferenceContent, type McpToolOutput } from '../mcp/content';

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** The reference's tool_response has the path as the model gave it (the hook's tool_input has it absolute). */
function givenPath(input: unknown, resolved: string): string {
  return isObject(input) && typeof input.file_path === 'string' ? input.file_path : resolved;
}

/** Commands that print nothing when they succeed (the reference's list). */
const SILENT_COMMANDS = new Set([
  'mv',
  'cp',
  'rm',
  'mkdir',
  'rmdir',
  'chmod',
  'chown',
  'chgrp',
  'touch',
  'ln',
  'cd',
  'export',
  'unset',
  'wait',
]);

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

/** Bash: the reference's fields; a persisted output keeps its first {@link HOOK_STDOUT_MAX_CHARS} characters. */
function bashResponse(data: Record<string, unknown>, persisted: { path: string; size: number } | undefined): unknown {
  const raw = typeof data.output === 'string' ? data.output : '';
  const output = raw.replace(/\n+$/, '');
  return {
    stdout: persisted ? output.slice(0, HOOK_STDOUT_MAX_CHARS) : output,
    stderr: '',
    interrupted: data.interrupted === true || data.timedOut === true,
    isImage: false,
    noOutputExpected: typeof data.command === 'string' ? noOutputExpected(data.command) : false,
    // run_in_background: the task's id, as the reference's.
    ...(isObject(data.background) && typeof data.background.taskId === 'string'
      ? { backgroundTaskId: data.background.taskId }
      : {}),
    // The size of the output as the command printed it (the reference's count, final newline included).
    ...(persisted
      ? {
          persistedOutputPath: persisted.path,
          persistedOutputSize:
            raw === ''
              ? persisted.size
              : Buffer.byteLength(raw) + (typeof data.omittedBytes === 'number' ? data.omittedBytes : 0),
        }
      : {}),
  };
}

/** Read of a text file: the lines as in the file, counted as the reference counts them. */
function readTextResponse(data: Record<string, unknown>, filePath: string, input: unknown): unknown {
  // Our content is `cat -n` style (number, tab, line); the reference's is the lines themselves.
  const numbered = typeof data.content === 'string' ? data.content : '';
  let content =
    numbered === ''
      ? ''
      : numbered
          .split('\n')
          .map((l) => l.replace(/^\s*\d+\t/, ''))
          .join('\n');
  // The reference splits the text at '\n': a final line break is followed by one more (empty)
  // line, and an empty file has one line. We count the lines a line break ends.
  let numLines = typeof data.numLines === 'number' ? data.numLines : 0;
  let totalLines = typeof data.totalLines === 'number' ? data.totalLines : 0;
  const startLine = typeof data.startLine === 'number' ? data.startLine : 1;
  if (totalLines === 0) {
    numLines = 1;
    totalLines = 1;
  } else if (data.endsWithNewline === true) {
    if (numLines > 0 && startLine + numLines - 1 === totalLines) {
      content += '\n';
      numLines += 1;
    }
    totalLines += 1;
  }
  return {
    type: 'text',
    file: { filePath: givenPath(input, filePath), content, numLines, startLine, totalLines },
  };
}

/**
 * The tool_response of a successful call. `input` is the input the tool ran with; `persisted`
 * says where a result too large to keep inline was stored.
 */
export function hookToolResponse(
  toolName: string,
  data: unknown,
  input: unknown,
  persisted?: { path: string; size: number },
): unknown {
  if (toolName.startsWith('mcp__') && isObject(data) && Array.isArray(data.content))
    return mcpReferenceContent(
      data as unknown as McpToolOutput,
      typeof data.server === 'string' ? data.server : toolName,
    );
  if (toolName === 'Bash' && isObject(data)) return bashResponse(data, persisted);
  if (toolName === 'Read' && isObject(data) && typeof data.filePath === 'string' && Array.isArray(data.notebook))
    return { type: 'notebook', file: { filePath: givenPath(input, data.filePath), cells: data.notebook } };
  // Skill: what the reference reports (success, commandName, allowedTools); the skill's text is the model's, not the hook's.
  if (toolName === 'Skill' && isObject(data)) {
    const { text: _text, ...rest } = data;
    return rest;
  }
  if (toolName === 'NotebookEdit' && isObject(data)) {
    const { mtimeMs: _mtime, ...rest } = data;
    return rest;
  }
  if (toolName === 'Read' && isObject(data) && typeof data.filePath === 'string')
    return readTextResponse(data, data.filePath, input);
  if (toolName === 'Write' && isObject(data) && isObject(input) && typeof data.filePath === 'string') {
    return {
      type: data.type,
      filePath: givenPath(input, data.filePath),
      content: typeof input.content === 'string' ? input.content : '',
      structuredPatch: Array.isArray(data.structuredPatch) ? data.structuredPatch : [],
      originalFile: typeof data.originalFile === 'string' ? data.originalFile : null,
      userModified: false,
    };
  }
  if (toolName === 'Edit' && isObject(data) && isObject(input) && typeof data.filePath === 'string') {
    return {
      filePath: givenPath(input, data.filePath),
      oldString: input.old_string,
      newString: input.new_string,
      originalFile: typeof data.originalFile === 'string' ? data.originalFile : '',
      structuredPatch: Array.isArray(data.structuredPatch) ? data.structuredPatch : [],
      userModified: false,
      replaceAll: input.replace_all === true,
    };
  }
  if ((toolName === 'Agent' || toolName === 'Task') && isObject(data) && typeof data.text === 'string') {
    // The reference's keys (its `toolStats` and full cache usage are not kept), then ours.
    return {
      status: data.status,
      prompt: isObject(input) ? input.prompt : undefined,
      agentId: data.sessionId,
      agentType: data.agentType,
      content: [{ type: 'text', text: data.text }],
      ...(typeof data.model === 'string' ? { resolvedModel: data.model } : {}),
      ...(typeof data.durationMs === 'number' ? { totalDurationMs: data.durationMs } : {}),
      ...(typeof data.totalTokens === 'number' ? { totalTokens: data.totalTokens } : {}),
      ...(typeof data.toolUses === 'number' ? { totalToolUseCount: data.toolUses } : {}),
      ...(isObject(data.usage) ? { usage: data.usage } : {}),
      endReason: data.endReason,
      turns: data.turns,
    };
  }
  return data;
}
