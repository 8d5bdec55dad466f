// InputValidationError messages from zod issues, in the reference's format: one line per missing
// key, then per unexpected key, then per wrong type, then the other issues (at most 20); when none
// is of the first three kinds, zod's own message (its issues as JSON), as the reference sends it.
import type { z } from 'zod';

/** Other issues listed at most (the rest counted), and the characters kept of each one's message. */
const MAX_OTHER_ISSUES = 20;
const MAX_ISSUE_CHARS = 500;

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function valueAt(root: unknown, p: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const k of p) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[k];
  }
  return cur;
}

export function formatPath(p: readonly PropertyKey[]): string {
  let out = '';
  for (const k of p) {
    if (typeof k === 'number') out += `[${k}]`;
    else out += out ? `.${String(k)}` : String(k);
  }
  return out;
}

const clip = (s: string): string =>
  s.length <= MAX_ISSUE_CHARS ? s : `${s.slice(0, MAX_ISSUE_CHARS)}\u2026 [+${s.length - MAX_ISSUE_CHARS} chars]`;

/** The lines of the issues, grouped as the reference groups them; [] when none is missing, unexpected or mistyped. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], input: unknown): string[] {
  const missing: string[] = [];
  const unexpected: string[] = [];
  const mistyped: string[] = [];
  const other: string[] = [];
  for (const issue of issues) {
    const where = formatPath(issue.path);
    const message = issue.message ?? '';
    const actual = valueAt(input, issue.path);
    if (issue.code === 'invalid_type') {
      if (message.includes('received undefined') || (actual === undefined && issue.path.length > 0)) {
        missing.push(`The required parameter \`${where}\` is missing`);
      } else {
        const received = /received (\w+)/.exec(message)?.[1] ?? typeOf(actual);
        const expected = (issue as { expected?: string }).expected ?? 'unknown';
        mistyped.push(`The parameter \`${where}\` type is expected as \`${expected}\` but provided as \`${received}\``);
      }
    } else if (issue.code === 'unrecognized_keys') {
      for (const k of (issue as { keys?: string[] }).keys ?? [])
        unexpected.push(`An unexpected parameter \`${formatPath([...issue.path, k])}\` was provided`);
    } else {
      const subject = where === '' ? 'The input' : `The parameter \`${where}\``;
      const why = clip(message.replace(/^Invalid input(?:: |$)/, ''));
      if (why !== '') other.push(`${subject} is invalid: ${why}`);
      else
        other.push(
          issue.code === 'invalid_union' ? `${subject} matches none of the accepted forms` : `${subject} is invalid`,
        );
    }
  }
  const lines = [...missing, ...unexpected, ...mistyped];
  if (lines.length === 0) return [];
  const more = other.length - MAX_OTHER_ISSUES;
  return [
    ...lines,
    ...other.slice(0, MAX_OTHER_ISSUES),
    ...(more > 0 ? [`(${more} more ${more === 1 ? 'issue' : 'issues'} not listed)`] : []),
  ];
}

export function formatInputValidationError(toolName: string, error: z.ZodError, input: unknown, note?: string): string {
  const lines = describeIssues(error.issues, input);
  if (lines.length === 0) return `InputValidationError: ${error.message}${note ? `\n(${note})` : ''}`;
  const head = `InputValidationError: ${toolName} failed due to the following ${lines.length === 1 ? 'issue' : 'issues'}${note ? ` (${note})` : ''}:`;
  return [head, ...lines].join('\n');
}
