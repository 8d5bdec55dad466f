// What `status` (and `ls`) say of a session's own work: the wait and its reason, the wake-up, the
// cron jobs and the background tasks it holds (core/autonomy.ts).
import type { SessionStatus } from '../temporal/workflows/definitions';
import { formatNextRun, humanCron } from '../core/cronText';

const iso = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/** One line for `ls`: `waiting until …: reason`, or undefined when the session is not waiting. */
export function waitingLine(s: Pick<SessionStatus, 'waiting' | 'stopRequested'>): string | undefined {
  if (s.stopRequested) return 'stopping (stop was asked)';
  if (!s.waiting) return undefined;
  return `waiting${s.waiting.until !== undefined ? ` until ${iso(s.waiting.until)}` : ''}: ${s.waiting.reason}`;
}

/** The lines `status` prints (none for a session without autonomy). */
export function autonomyLines(s: Pick<SessionStatus, 'autonomy' | 'waiting' | 'stopRequested'>): string[] {
  const out: string[] = [];
  const w = waitingLine(s);
  if (w) out.push(w);
  const a = s.autonomy;
  if (!a) return out;
  if (a.wakeup) out.push(`wake-up: at ${iso(a.wakeup.at)} — ${a.wakeup.reason}`);
  for (const j of a.crons)
    out.push(
      `cron ${j.id}: ${humanCron(j.cron)} (${j.recurring ? 'recurring' : 'one-shot'}), next ${j.nextFireAt !== null ? formatNextRun(j.nextFireAt, j.timeZone) : 'none'}, fired ${j.fired}: ${j.prompt.slice(0, 80)}`,
    );
  for (const t of a.tasks) {
    const ended = t.endedAt !== undefined ? `, ended ${iso(t.endedAt)}` : '';
    const exit = t.exitCode !== undefined && t.exitCode !== null ? `, exit ${t.exitCode}` : '';
    const size = t.outputBytes !== undefined ? `, ${t.outputBytes} B output` : '';
    const runs = t.command && t.command !== t.description ? ` ($ ${t.command.slice(0, 80)})` : '';
    const file = t.outputPath ? `; output ${t.outputPath}` : '';
    // A background agent: its child session (`status <id>` shows it) and its worktree.
    const agent = t.agent
      ? `; agent session ${t.agent.sessionId}${t.agent.worktree ? `, worktree ${t.agent.worktree.path}` : ''}`
      : '';
    out.push(
      `task ${t.id} [${t.state}]${t.kind === 'local_agent' ? ' agent' : ''} ${t.description.slice(0, 80)}${runs} — started ${iso(t.startedAt)}${ended}${exit}${size}${file}${agent}`,
    );
  }
  return out;
}
