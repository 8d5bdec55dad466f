// ScheduleWakeup, CronCreate, CronList, CronDelete: the model paces its own loop and schedules
// prompts (the reference's names and schemas: test/fixtures/reference-tools/2.1.328). A tool only
// records what it wants as a context modifier (core/autonomy.ts); the session keeps it — across
// worker and server restarts, as a durable timer — and queues the prompt when it is due. Times are
// computed here, in the tool's activity, and recorded: workflow code never reads a clock zone.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { buildTool, type ToolUseContext } from '../toolProtocol/Tool';
import { localFieldsIn, nextCronFire, parseCron } from '../core/cron';
import { CRON_RECURRING_TTL_MS, MAX_TASK_TEXT, clampWakeupDelay, type CronJob, type Wakeup } from '../core/autonomy';
import { formatClock, formatNextRun, humanCron, sessionTimeZone } from '../core/cronText';

/** At most this many cron jobs per session (a new one beyond it is refused). */
export const MAX_CRON_JOBS = 50;
/** A scheduled prompt is at most this long (it travels with the session's context). */
export const MAX_SCHEDULED_PROMPT = 4000;

const control = { isReadOnly: () => true, isIdempotent: () => true } as const;

/** A short id derived from the call, so that a retried call names the same job. */
function jobId(ctx: ToolUseContext): string {
  return createHash('sha256').update(`${ctx.sessionId}/${ctx.toolUseId}`).digest('hex').slice(0, 8);
}

// --- ScheduleWakeup ----------------------------------------------------------------------------

const wakeupSchema = z.strictObject({
  delaySeconds: z.number().optional().describe('Seconds from now to wake up: 60 to 3600 (clamped).'),
  reason: z.string().optional().describe('One sentence: why this delay. Shown in status and the UI.'),
  prompt: z.string().optional().describe('The prompt that enters the conversation when the wake-up fires.'),
  stop: z
    .boolean()
    .optional()
    .describe('true: cancel the pending wake-up and end the loop; the other fields are ignored.'),
  noop: z.boolean().optional().describe('true: this tick found nothing to report.'),
});

export interface ScheduleWakeupOutput {
  scheduledFor?: number;
  clampedDelaySeconds?: number;
  wasClamped?: boolean;
  stopped?: boolean;
  cancelledWakeups?: number;
  /** The clock time in the session's zone, for the result text. */
  clock?: string;
}

export const ScheduleWakeupTool = buildTool({
  name: 'ScheduleWakeup',
  inputSchema: wakeupSchema,
  ...control,
  prompt: () =>
    'Ends this turn and wakes the session up later with a prompt: for loops that poll something (a build, a deploy, a queue) at a pace the model picks. The wait is durable (it survives restarts) and holds no worker. `stop: true` cancels a pending wake-up.',
  summary: (i) =>
    i.stop ? 'ScheduleWakeup stop' : `ScheduleWakeup in ${i.delaySeconds ?? '?'}s: ${(i.reason ?? '').slice(0, 60)}`,
  async validateInput(i) {
    if (i.stop) return { result: true };
    if (i.delaySeconds === undefined || !i.reason?.trim())
      // The reference refuses it in call(): no <tool_use_error> tags.
      return {
        result: false,
        message: '`delaySeconds` and `reason` are required when `stop` is not true.',
        untagged: true,
      };
    if (!Number.isFinite(i.delaySeconds)) return { result: false, message: '`delaySeconds` must be a number.' };
    if ((i.prompt ?? '').length > MAX_SCHEDULED_PROMPT)
      return { result: false, message: `\`prompt\` is longer than ${MAX_SCHEDULED_PROMPT} characters.` };
    return { result: true };
  },
  async call(i, ctx) {
    if (i.stop) {
      const pending = ctx.agent.autonomy?.wakeup ? 1 : 0;
      return {
        data: { stopped: true, cancelledWakeups: pending },
        contextModifiers: pending ? [{ type: 'wakeupCancelled' }] : [],
      };
    }
    const { seconds, clamped } = clampWakeupDelay(i.delaySeconds!);
    const at = Date.now() + seconds * 1000;
    const reason = i.reason!.trim().slice(0, MAX_TASK_TEXT);
    const wakeup: Wakeup = { at, prompt: i.prompt?.trim() || reason, reason, toolUseId: ctx.toolUseId };
    return {
      data: {
        scheduledFor: at,
        clampedDelaySeconds: seconds,
        wasClamped: clamped,
        clock: formatClock(at, sessionTimeZone(ctx.agent)),
      },
      contextModifiers: [{ type: 'wakeupScheduled', wakeup }],
    };
  },
  mapToolResultToToolResultBlockParam(d: ScheduleWakeupOutput, toolUseId) {
    const text = d.stopped
      ? `Loop stopped — cancelled ${d.cancelledWakeups ?? 0} pending wakeup(s); no further wake-ups fire.`
      : `Next wakeup scheduled for ${d.clock} (in ${d.clampedDelaySeconds}s)${d.wasClamped ? ` (clamped to ${d.clampedDelaySeconds}s from your requested value)` : ''}. End your turn now: the session sleeps until then and your prompt comes back.`;
    return { type: 'tool_result', tool_use_id: toolUseId, content: text };
  },
});

// --- CronCreate --------------------------------------------------------------------------------

const cronCreateSchema = z.strictObject({
  cron: z.string().describe('5-field cron in the session\'s local time: "M H DoM Mon DoW" (e.g. "*/5 * * * *").'),
  prompt: z.string().describe('The prompt queued at each firing.'),
  recurring: z
    .boolean()
    .optional()
    .describe('true (default): every match until deleted or 7 days pass. false: the next match only.'),
  durable: z
    .boolean()
    .optional()
    .describe('Accepted for compatibility: every job here is durable (kept by the session across restarts).'),
});

export interface CronCreateOutput {
  id: string;
  humanSchedule: string;
  recurring: boolean;
  durable: true;
  nextFireAt?: number;
  nextRun?: string;
}

export const CronCreateTool = buildTool({
  name: 'CronCreate',
  // Deferred behind ToolSearch when tool search is on (the reference defers it too).
  shouldDefer: true,
  inputSchema: cronCreateSchema,
  ...control,
  prompt: () =>
    "Schedules a prompt on a 5-field cron in the session's local time, recurring (default; expires after 7 days) or once. A firing while the session is busy is queued, never lost or doubled; jobs survive worker and server restarts.",
  summary: (i) => `CronCreate "${i.cron}": ${i.prompt.slice(0, 60)}`,
  async validateInput(i, ctx) {
    const parsed = parseCron(i.cron);
    if (!parsed.ok)
      return {
        result: false,
        // The reference's text; then which field is wrong, unless that is only the count it already names.
        message: `Invalid cron expression '${i.cron}'. Expected 5 fields: M H DoM Mon DoW.${parsed.error.startsWith('expected 5 fields') ? '' : ` (${parsed.error})`}`,
        errorCode: 1,
      };
    if (nextCronFire(parsed.spec, Date.now(), localFieldsIn(sessionTimeZone(ctx.agent))) === null)
      return {
        result: false,
        message: `Cron expression '${i.cron}' does not match any calendar date in the next year.`,
        errorCode: 2,
      };
    if ((ctx.agent.autonomy?.crons.length ?? 0) >= MAX_CRON_JOBS)
      return {
        result: false,
        message: `Too many scheduled jobs (max ${MAX_CRON_JOBS}). Cancel one first.`,
        errorCode: 3,
      };
    if (!i.prompt.trim()) return { result: false, message: '`prompt` is empty.' };
    if (i.prompt.length > MAX_SCHEDULED_PROMPT)
      return { result: false, message: `\`prompt\` is longer than ${MAX_SCHEDULED_PROMPT} characters.` };
    return { result: true };
  },
  async call(i, ctx) {
    const spec = parseCron(i.cron);
    if (!spec.ok) throw new Error(spec.error);
    const timeZone = sessionTimeZone(ctx.agent);
    const now = Date.now();
    const recurring = i.recurring !== false;
    const next = nextCronFire(spec.spec, now, localFieldsIn(timeZone));
    const job: CronJob = {
      id: jobId(ctx),
      cron: spec.spec.expr,
      prompt: i.prompt,
      recurring,
      timeZone,
      createdAt: now,
      ...(recurring ? { expiresAt: now + CRON_RECURRING_TTL_MS } : {}),
      nextFireAt: next,
      fired: 0,
    };
    return {
      data: {
        id: job.id,
        humanSchedule: humanCron(job.cron),
        recurring,
        durable: true,
        ...(next !== null ? { nextFireAt: next, nextRun: formatNextRun(next, timeZone) } : {}),
      },
      contextModifiers: [{ type: 'cronCreated', job }],
    };
  },
  mapToolResultToToolResultBlockParam(d: CronCreateOutput, toolUseId) {
    const text = d.recurring
      ? `Scheduled recurring job ${d.id} (${d.humanSchedule}). Next run: ${d.nextRun ?? 'none'}. Durable: the session keeps it across restarts. Auto-expires after 7 days. Use CronDelete to cancel sooner.`
      : `Scheduled one-shot task ${d.id} (${d.humanSchedule}). Next run: ${d.nextRun ?? 'none'}. Durable: the session keeps it across restarts. It will fire once then auto-delete.`;
    return { type: 'tool_result', tool_use_id: toolUseId, content: text };
  },
});

// --- CronList ----------------------------------------------------------------------------------

export interface CronListOutput {
  jobs: Array<{
    id: string;
    cron: string;
    humanSchedule: string;
    prompt: string;
    recurring: boolean;
    nextFireAt?: number;
    nextRun?: string;
  }>;
}

export const CronListTool = buildTool({
  name: 'CronList',
  // Deferred behind ToolSearch when tool search is on (the reference defers it too).
  shouldDefer: true,
  inputSchema: z.strictObject({}),
  ...control,
  isConcurrencySafe: () => true,
  prompt: () => "Lists the session's cron jobs and its pending wake-up.",
  summary: () => 'CronList',
  async call(_i, ctx) {
    const a = ctx.agent.autonomy;
    const tz = sessionTimeZone(ctx.agent);
    const jobs: CronListOutput['jobs'] = (a?.crons ?? []).map((j) => ({
      id: j.id,
      cron: j.cron,
      humanSchedule: humanCron(j.cron),
      prompt: j.prompt,
      recurring: j.recurring,
      ...(j.nextFireAt !== null ? { nextFireAt: j.nextFireAt, nextRun: formatNextRun(j.nextFireAt, j.timeZone) } : {}),
    }));
    if (a?.wakeup)
      jobs.push({
        id: 'wakeup',
        cron: '',
        humanSchedule: `wake-up (${a.wakeup.reason})`,
        prompt: a.wakeup.prompt,
        recurring: false,
        nextFireAt: a.wakeup.at,
        nextRun: formatNextRun(a.wakeup.at, tz),
      });
    return { data: { jobs } };
  },
  mapToolResultToToolResultBlockParam(d: CronListOutput, toolUseId) {
    const text =
      d.jobs.length === 0
        ? 'No scheduled jobs.'
        : d.jobs
            .map(
              (j) =>
                `${j.id} — ${j.humanSchedule} (${j.recurring ? 'recurring' : 'one-shot'}), next run ${j.nextRun ?? 'none'}: ${j.prompt}`,
            )
            .join('\n');
    return { type: 'tool_result', tool_use_id: toolUseId, content: text };
  },
});

// --- CronDelete --------------------------------------------------------------------------------

export const CronDeleteTool = buildTool({
  name: 'CronDelete',
  // Deferred behind ToolSearch when tool search is on (the reference defers it too).
  shouldDefer: true,
  inputSchema: z.strictObject({ id: z.string().describe('The job id CronCreate returned.') }),
  ...control,
  prompt: () => 'Cancels a cron job by the id CronCreate returned.',
  summary: (i) => `CronDelete ${i.id}`,
  async validateInput(i, ctx) {
    if (ctx.agent.autonomy?.crons.some((j) => j.id === i.id)) return { result: true };
    return { result: false, message: `No scheduled job with id '${i.id}'` };
  },
  async call(i) {
    return { data: { id: i.id }, contextModifiers: [{ type: 'cronDeleted', id: i.id }] };
  },
  mapToolResultToToolResultBlockParam(d: { id: string }, toolUseId) {
    return { type: 'tool_result', tool_use_id: toolUseId, content: `Cancelled job ${d.id}.` };
  },
});

export const SCHEDULE_TOOLS = [ScheduleWakeupTool, CronCreateTool, CronListTool, CronDeleteTool];
