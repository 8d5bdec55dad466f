// The hunks of a file change, in the shape Claude Code's Write and Edit report them to hooks
// (`structuredPatch`): 3 lines of context, `-`/`+`/` ` prefixed lines, `\ No newline at end of
// file` markers. Computed only when a PostToolUse hook will see the call (ToolUseContext).
import { structuredPatch } from 'diff';

export interface PatchHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

const CONTEXT_LINES = 3;
/** A diff that takes longer than this is given as one hunk replacing the whole file. */
const DIFF_TIMEOUT_MS = 1000;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The whole file replaced: what a diff that timed out is reported as. */
function wholeFileHunk(before: string, after: string): PatchHunk[] {
  const oldL = splitLines(before);
  const newL = splitLines(after);
  const lines = [
    ...oldL.map((l) => `-${l}`),
    ...(before !== '' && !before.endsWith('\n') ? ['\\ No newline at end of file'] : []),
  ];
  lines.push(
    ...newL.map((l) => `+${l}`),
    ...(after !== '' && !after.endsWith('\n') ? ['\\ No newline at end of file'] : []),
  );
  return [{ oldStart: 1, oldLines: oldL.length, newStart: 1, newLines: newL.length, lines }];
}

/** The hunks that turn `before` into `after` ([] when they are equal). */
export function filePatch(before: string, after: string): PatchHunk[] {
  if (before === after) return [];
  const patch = structuredPatch('a', 'b', before, after, undefined, undefined, {
    context: CONTEXT_LINES,
    timeout: DIFF_TIMEOUT_MS,
  });
  if (!patch) return wholeFileHunk(before, after);
  return patch.hunks.map((h) => ({
    oldStart: h.oldStart,
    oldLines: h.oldLines,
    newStart: h.newStart,
    newLines: h.newLines,
    lines: h.lines,
  }));
}
