"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SCHEDULE_TOOLS = exports.CronDeleteTool = exports.CronListTool = exports.CronCreateTool = exports.ScheduleWakeupTool = exports.MAX_SCHEDULED_PROMPT = exports.MAX_CRON_JOBS = void 0;
// ScheduleWakeup, CronCreate, CronList, CronDelete: the model paces its own loop and schedules
// prompts (the reference's names and schemas: test/fixtures/reference-tools/2.1.328). A tool only
// records what it wants as a context modifier (engine/autonomy.ts); the session keeps it — across
// worker and server restarts, as a durable timer — and queues the prompt when it is due. Times are
// computed here, in the tool's activity, and recorded: workflow code never reads a clock zone.
const node_crypto_1 = require("node:crypto");
const zod_1 = require("zod");
const Tool_1 = require("../Tool");
const cron_1 = require("../../engine/cron");
const autonomy_1 = require("../../engine/autonomy");
const cronText_1 = require("../cronText");
/** At most this many cron jobs per session (a new one beyond it is refused). */
exports.MAX_CRON_JOBS = 50;
/** A scheduled prompt is at most this long (it travels with the session's context). */
exports.MAX_SCHEDULED_PROMPT = 4000;
const control = { isReadOnly: () => true, isIdempotent: () => true };
/** A short id derived from the call, so that a retried call names the same job. */
function jobId(ctx) {
    return (0, node_crypto_1.createHash)('sha256').update(`${ctx.sessionId}/${ctx.toolUseId}`).digest('hex').slice(0, 8);
}
// --- ScheduleWakeup ----------------------------------------------------------------------------
const wakeupSchema = zod_1.z.strictObject({
    delaySeconds: zod_1.z.number().optional().describe('Seconds from now to wake up: 60 to 3600 (clamped).'),
    reason: zod_1.z.string().optional().describe('One sentence: why this delay. Shown in status and the UI.'),
    prompt: zod_1.z.string().optional().describe('The prompt that enters the conversation when the wake-up fires.'),
    stop: zod_1.z
        .boolean()
        .optional()
        .describe('true: cancel the pending wake-up and end the loop; the other fields are ignored.'),
    noop: zod_1.z.boolean().optional().describe('true: this tick found nothing to report.'),
});
exports.ScheduleWakeupTool = (0, Tool_1.buildTool)({
    name: 'ScheduleWakeup',
    inputSchema: wakeupSchema,
    ...control,
    prompt: () => 'Ends this turn and wakes the session up later with a prompt: for loops that poll something (a build, a deploy, a queue) at a pace the model picks. The wait is durable (it survives restarts) and holds no worker. `stop: true` cancels a pending wake-up.',
    summary: (i) => i.stop ? 'ScheduleWakeup stop' : `ScheduleWakeup in ${i.delaySeconds ?? '?'}s: ${(i.reason ?? '').slice(0, 60)}`,
    async validateInput(i) {
        if (i.stop)
            return { result: true };
        if (i.delaySeconds === undefined || !i.reason?.trim())
            return { result: false, message: '`delaySeconds` and `reason` are required when `stop` is not true.' };
        if (!Number.isFinite(i.delaySeconds))
            return { result: false, message: '`delaySeconds` must be a number.' };
        if ((i.prompt ?? '').length > exports.MAX_SCHEDULED_PROMPT)
            return { result: false, message: `\`prompt\` is longer than ${exports.MAX_SCHEDULED_PROMPT} characters.` };
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
        const { seconds, clamped } = (0, autonomy_1.clampWakeupDelay)(i.delaySeconds);
        const at = Date.now() + seconds * 1000;
        const reason = i.reason.trim().slice(0, autonomy_1.MAX_TASK_TEXT);
        const wakeup = { at, prompt: i.prompt?.trim() || reason, reason, toolUseId: ctx.toolUseId };
        return {
            data: {
                scheduledFor: at,
                clampedDelaySeconds: seconds,
                wasClamped: clamped,
                clock: (0, cronText_1.formatClock)(at, (0, cronText_1.sessionTimeZone)(ctx.agent)),
            },
            contextModifiers: [{ type: 'wakeupScheduled', wakeup }],
        };
    },
    mapToolResultToToolResultBlockParam(d, toolUseId) {
        const text = d.stopped
            ? `Loop stopped — cancelled ${d.cancelledWakeups ?? 0} pending wakeup(s); no further wake-ups fire.`
            : `Next wakeup scheduled for ${d.clock} (in ${d.clampedDelaySeconds}s)${d.wasClamped ? ` (clamped to ${d.clampedDelaySeconds}s from your requested value)` : ''}. End your turn now: the session sleeps until then and your prompt comes back.`;
        return { type: 'tool_result', tool_use_id: toolUseId, content: text };
    },
});
// --- CronCreate --------------------------------------------------------------------------------
const cronCreateSchema = zod_1.z.strictObject({
    cron: zod_1.z.string().describe('5-field cron in the session\'s local time: "M H DoM Mon DoW" (e.g. "*/5 * * * *").'),
    prompt: zod_1.z.string().describe('The prompt queued at each firing.'),
    recurring: zod_1.z
        .boolean()
        .optional()
        .describe('true (default): every match until deleted or 7 days pass. false: the next match only.'),
    durable: zod_1.z
        .boolean()
        .optional()
        .describe('Accepted for compatibility: every job here is durable (kept by the session across restarts).'),
});
exports.CronCreateTool = (0, Tool_1.buildTool)({
    name: 'CronCreate',
    // Deferred behind ToolSearch when tool search is on (the reference defers it too).
    shouldDefer: true,
    inputSchema: cronCreateSchema,
    ...control,
    prompt: () => "Schedules a prompt on a 5-field cron in the session's local time, recurring (default; expires after 7 days) or once. A firing while the session is busy is queued, never lost or doubled; jobs survive worker and server restarts.",
    summary: (i) => `CronCreate "${i.cron}": ${i.prompt.slice(0, 60)}`,
    async validateInput(i, ctx) {
        const parsed = (0, cron_1.parseCron)(i.cron);
        if (!parsed.ok)
            return {
                result: false,
                // The reference's text; then which field is wrong, unless that is only the count it already names.
                message: `Invalid cron expression '${i.cron}'. Expected 5 fields: M H DoM Mon DoW.${parsed.error.startsWith('expected 5 fields') ? '' : ` (${parsed.error})`}`,
                errorCode: 1,
            };
        if ((0, cron_1.nextCronFire)(parsed.spec, Date.now(), (0, cron_1.localFieldsIn)((0, cronText_1.sessionTimeZone)(ctx.agent))) === null)
            return {
                result: false,
                message: `Cron expression '${i.cron}' does not match any calendar date in the next year.`,
                errorCode: 2,
            };
        if ((ctx.agent.autonomy?.crons.length ?? 0) >= exports.MAX_CRON_JOBS)
            return {
                result: false,
                message: `Too many scheduled jobs (max ${exports.MAX_CRON_JOBS}). Cancel one first.`,
                errorCode: 3,
            };
        if (!i.prompt.trim())
            return { result: false, message: '`prompt` is empty.' };
        if (i.prompt.length > exports.MAX_SCHEDULED_PROMPT)
            return { result: false, message: `\`prompt\` is longer than ${exports.MAX_SCHEDULED_PROMPT} characters.` };
        return { result: true };
    },
    async call(i, ctx) {
        const spec = (0, cron_1.parseCron)(i.cron);
        if (!spec.ok)
            throw new Error(spec.error);
        const timeZone = (0, cronText_1.sessionTimeZone)(ctx.agent);
        const now = Date.now();
        const recurring = i.recurring !== false;
        const next = (0, cron_1.nextCronFire)(spec.spec, now, (0, cron_1.localFieldsIn)(timeZone));
        const job = {
            id: jobId(ctx),
            cron: spec.spec.expr,
            prompt: i.prompt,
            recurring,
            timeZone,
            createdAt: now,
            ...(recurring ? { expiresAt: now + autonomy_1.CRON_RECURRING_TTL_MS } : {}),
            nextFireAt: next,
            fired: 0,
        };
        return {
            data: {
                id: job.id,
                humanSchedule: (0, cronText_1.humanCron)(job.cron),
                recurring,
                durable: true,
                ...(next !== null ? { nextFireAt: next, nextRun: (0, cronText_1.formatNextRun)(next, timeZone) } : {}),
            },
            contextModifiers: [{ type: 'cronCreated', job }],
        };
    },
    mapToolResultToToolResultBlockParam(d, toolUseId) {
        const text = d.recurring
            ? `Scheduled recurring job ${d.id} (${d.humanSchedule}). Next run: ${d.nextRun ?? 'none'}. Durable: the session keeps it across restarts. Auto-expires after 7 days. Use CronDelete to cancel sooner.`
            : `Scheduled one-shot task ${d.id} (${d.humanSchedule}). Next run: ${d.nextRun ?? 'none'}. Durable: the session keeps it across restarts. It will fire once then auto-delete.`;
        return { type: 'tool_result', tool_use_id: toolUseId, content: text };
    },
});
exports.CronListTool = (0, Tool_1.buildTool)({
    name: 'CronList',
    // Deferred behind ToolSearch when tool search is on (the reference defers it too).
    shouldDefer: true,
    inputSchema: zod_1.z.strictObject({}),
    ...control,
    isConcurrencySafe: () => true,
    prompt: () => "Lists the session's cron jobs and its pending wake-up.",
    summary: () => 'CronList',
    async call(_i, ctx) {
        const a = ctx.agent.autonomy;
        const tz = (0, cronText_1.sessionTimeZone)(ctx.agent);
        const jobs = (a?.crons ?? []).map((j) => ({
            id: j.id,
            cron: j.cron,
            humanSchedule: (0, cronText_1.humanCron)(j.cron),
            prompt: j.prompt,
            recurring: j.recurring,
            ...(j.nextFireAt !== null ? { nextFireAt: j.nextFireAt, nextRun: (0, cronText_1.formatNextRun)(j.nextFireAt, j.timeZone) } : {}),
        }));
        if (a?.wakeup)
            jobs.push({
                id: 'wakeup',
                cron: '',
                humanSchedule: `wake-up (${a.wakeup.reason})`,
                prompt: a.wakeup.prompt,
                recurring: false,
                nextFireAt: a.wakeup.at,
                nextRun: (0, cronText_1.formatNextRun)(a.wakeup.at, tz),
            });
        return { data: { jobs } };
    },
    mapToolResultToToolResultBlockParam(d, toolUseId) {
        const text = d.jobs.length === 0
            ? 'No scheduled jobs.'
            : d.jobs
                .map((j) => `${j.id} — ${j.humanSchedule} (${j.recurring ? 'recurring' : 'one-shot'}), next run ${j.nextRun ?? 'none'}: ${j.prompt}`)
                .join('\n');
        return { type: 'tool_result', tool_use_id: toolUseId, content: text };
    },
});
// --- CronDelete --------------------------------------------------------------------------------
exports.CronDeleteTool = (0, Tool_1.buildTool)({
    name: 'CronDelete',
    // Deferred behind ToolSearch when tool search is on (the reference defers it too).
    shouldDefer: true,
    inputSchema: zod_1.z.strictObject({ id: zod_1.z.string().describe('The job id CronCreate returned.') }),
    ...control,
    prompt: () => 'Cancels a cron job by the id CronCreate returned.',
    summary: (i) => `CronDelete ${i.id}`,
    async validateInput(i, ctx) {
        if (ctx.agent.autonomy?.crons.some((j) => j.id === i.id))
            return { result: true };
        return { result: false, message: `No scheduled job with id '${i.id}'` };
    },
    async call(i) {
        return { data: { id: i.id }, contextModifiers: [{ type: 'cronDeleted', id: i.id }] };
    },
    mapToolResultToToolResultBlockParam(d, toolUseId) {
        return { type: 'tool_result', tool_use_id: toolUseId, content: `Cancelled job ${d.id}.` };
    },
});
exports.SCHEDULE_TOOLS = [exports.ScheduleWakeupTool, exports.CronCreateTool, exports.CronListTool, exports.CronDeleteTool];
//# sourceMappingURL=schedule.js.map