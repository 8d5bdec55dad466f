// How scheduled times read: a cron expression in words ("Every 5 minutes", "Every day at 9:00 AM"),
// a firing time in the session's zone. Shared by the scheduling tools and the CLI.
import type { AgentContext } from './context';

/** The session's IANA zone (fixed at its start); a session started before it existed: the worker's. */
export function sessionTimeZone(ctx: Pick<AgentContext, 'timeZone'>): string {
  return ctx.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
}

/** True when `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function clock12(h: number, m: number): string {
  return `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The common shapes in words; anything else is the expression itself. */
export function humanCron(expr: string): string {
  const [mi, h, dom, mon, dow] = expr.trim().split(/\s+/);
  const num = (s: string | undefined): number | undefined =>
    s !== undefined && /^\d+$/.test(s) ? Number(s) : undefined;
  if (mi === '*' && h === '*' && dom === '*' && mon === '*' && dow === '*') return 'Every minute';
  const step = /^\*\/(\d+)$/.exec(mi ?? '');
  if (step && h === '*' && dom === '*' && mon === '*' && dow === '*') return `Every ${step[1]} minutes`;
  const m = num(mi);
  if (m !== undefined && h === '*' && dom === '*' && mon === '*' && dow === '*')
    return m === 0 ? 'Every hour' : `Every hour at :${String(m).padStart(2, '0')}`;
  const hh = num(h);
  if (m !== undefined && hh !== undefined && dom === '*' && mon === '*') {
    if (dow === '*') return `Every day at ${clock12(hh, m)}`;
    if (dow === '1-5') return `Weekdays at ${clock12(hh, m)}`;
    const d = num(dow);
    if (d !== undefined && d <= 7) return `Every ${DAYS[d % 7]} at ${clock12(hh, m)}`;
  }
  return expr.trim();
}

/** HH:MM:SS in a zone. */
export function formatClock(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(ms);
}

/** "Dec 3 9:00am (Europe/Berlin)": a firing time in the zone it is read in. */
export function formatNextRun(ms: number, timeZone: string): string {
  const parts: Record<string, string> = {};
  for (const p of new Intl.DateTimeFormat('en-US', {
    timeZone,
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    hourCycle: 'h12',
  }).formatToParts(ms))
    parts[p.type] = p.value;
  return `${parts.month} ${parts.day} ${parts.hour}:${parts.minute}${(parts.dayPeriod ?? '').toLowerCase()} (${timeZone})`;
}
