// What the Temporal UI shows of a session waiting for its own work (the workflow's current
// details, issue 19): the line `status` shows, then one line per running background task — its id,
// kind, start, what it runs and where its output goes — so the session's page names every task it
// waits for. Markdown (the UI renders it): a list under the wait's line. Pure; the text is a query
// answer, never part of the history.
import type { Autonomy } from './autonomy';

const utc = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`;
const oneLine = (s: string, max: number): string => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** An inline code span that holds any text (a fence longer than any run of backticks in it). */
function code(s: string): string {
  const longest = Math.max(0, ...(s.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return s.startsWith('`') || s.endsWith('`') ? `${fence} ${s} ${fence}` : `${fence}${s}${fence}`;
}

export function waitDetails(a: Autonomy | undefined, until: number | undefined, reason: string): string {
  const lines = [`Waiting${until !== undefined ? ` until ${utc(until)}` : ''} — ${reason}`];
  const running = (a?.tasks ?? []).filter((t) => t.state === 'running');
  if (running.length > 0) lines.push('');
  for (const t of running) {
    const command = t.command && t.command !== t.description ? `: ${code(oneLine(t.command, 120))}` : '';
    lines.push(
      `- task ${code(t.id)} (${t.kind}) since ${utc(t.startedAt)} — ${oneLine(t.description, 120)}${command}${t.stopRequested ? ' — stopping' : ''}${t.outputPath ? ` — output ${code(t.outputPath)}` : ''}`,
    );
  }
  return lines.join('\n');
}
