// `durable-agent schedule add|ls|rm|pause|resume`: Temporal Schedules that start a NEW unattended
// session at each firing (src/temporal/schedules.ts). `add` takes `run`'s session flags and builds and checks
// the session exactly as `run` does (steps 1–7 of run.ts) before it creates anything.
import type { Command } from 'commander';
import type { Client } from '@temporalio/client';
import type { SessionScheduleInfo } from '../../temporal/schedules';
import { daySpendText } from '../../core/scheduleDay';
import { addConnectionOptions, positiveInt, print, usdAmount, UsageError, withClient, type ConnOpts } from '../options';
import { addSessionFlags, type RunOpts } from './run';
import { terminalSafe } from '../terminalText';

/** The schedules' module (and the Temporal client under it), loaded when a schedule command runs (issue 32). */
const schedules = () => import('../../temporal/schedules');

/** One schedule in one or two lines. */
function scheduleText(s: SessionScheduleInfo): string {
  const when = s.paused ? `paused${s.note ? ` (${s.note})` : ''}` : `next ${s.next[0] ?? '—'}`;
  const last = s.recent[s.recent.length - 1];
  const skipped =
    s.lastEnd && s.lastEnd.session === last?.session ? ` (${s.lastEnd.status}: ${s.lastEnd.endReason})` : '';
  return (
    `${s.scheduleId}  "${s.cron}" (${s.timeZone})  ${when}  ${s.prompt.replace(/\s+/g, ' ').slice(0, 60)}` +
    (s.daily && s.today ? `\n    daily budget: ${daySpendText(s.daily, s.today)}` : '') +
    (s.daily && s.todayUnknown ? `\n    daily budget: today's spend unknown (${s.todayUnknown})` : '') +
    (last ? `\n    last session: ${last.session}${skipped}` : '')
  );
}

type AddOpts = RunOpts & {
  id?: string;
  tz?: string;
  paused?: boolean;
  maxBudgetUsdPerDay?: number;
  maxTotalTokensPerDay?: number;
};

const dailyCapText = (d: NonNullable<SessionScheduleInfo['daily']>): string =>
  [
    d.maxBudgetUsdPerDay !== undefined ? `$${d.maxBudgetUsdPerDay}` : '',
    d.maxTotalTokensPerDay !== undefined ? `${d.maxTotalTokensPerDay} tokens` : '',
  ]
    .filter(Boolean)
    .join(' and ');

/** `schedule add`: the schedule's own input first, then the session built and checked as `run` builds it, then the schedule. */
async function addSchedule(cron: string, promptWords: string[], o: AddOpts): Promise<void> {
  const { id, tz, paused, maxBudgetUsdPerDay, maxTotalTokensPerDay, ...run } = o;
  const daily = {
    ...(maxBudgetUsdPerDay !== undefined ? { maxBudgetUsdPerDay } : {}),
    ...(maxTotalTokensPerDay !== undefined ? { maxTotalTokensPerDay } : {}),
  };
  const { checkCron, checkScheduleId, checkTimeZone, createSessionSchedule, localTimeZone } = await schedules();
  const { CheckoutNotTrustedError } = await import('../../sessionInput');
  const { checkoutRefusal } = await import('../../worktree/git/checkoutControl');
  // The schedule's own input first: one line, before the session is built or the server asked.
  checkCron(cron, checkTimeZone(tz ?? localTimeZone()));
  if (id) checkScheduleId(id);
  // The schedule id is not the session id: every firing has its own. With a budget per day alone,
  // --on-budget and --budget-threshold apply to each firing's share of the day.
  const perDayOnly = Object.keys(daily).length > 0 && run.maxBudgetUsd === undefined && !run.maxTotalTokens;
  const { onBudget, budgetThreshold, ...rest } = run;
  const { buildRunSession } = await import('./runSession');
  const built = await buildRunSession(promptWords, (perDayOnly ? rest : run) as RunOpts);
  const opts = perDayOnly
    ? {
        ...built.opts,
        ...(onBudget ? { onBudget } : {}),
        ...(budgetThreshold !== undefined ? { budgetThreshold } : {}),
      }
    : built.opts;
  await withClient(o, async (client) => {
    let s: SessionScheduleInfo & { checkout?: string[] };
    try {
      s = await createSessionSchedule(
        client,
        { ...opts, ...(o.trustCheckout ? { trustCheckout: true } : {}) },
        {
          cron,
          ...(id ? { scheduleId: id } : {}),
          ...(tz ? { timeZone: tz } : {}),
          ...(paused ? { paused } : {}),
          ...(Object.keys(daily).length > 0 ? { daily } : {}),
        },
      );
    } catch (err) {
      // The same lines and refusal as `run` (src/sessionInput.ts checkoutAtStart): nothing was created.
      if (!(err instanceof CheckoutNotTrustedError)) throw err;
      for (const line of err.lines) process.stderr.write(`${terminalSafe(line)}\n`);
      throw new UsageError(checkoutRefusal(err.control, 'add the schedule again with --trust-checkout'));
    }
    for (const line of s.checkout ?? []) process.stderr.write(`${terminalSafe(line)}\n`);
    print(
      o,
      s,
      `schedule ${s.scheduleId} created: "${s.cron}" (${s.timeZone}), ${s.paused ? 'paused' : `next firing ${s.next[0] ?? '—'}`}; each firing starts session ${s.scheduleId}-<firing time>` +
        (s.daily ? `; daily budget ${dailyCapText(s.daily)} (${s.timeZone} days)` : ''),
    );
  });
}

export function addScheduleCommands(program: Command): void {
  const schedule = program
    .command('schedule')
    .description('Schedules that start a new unattended session at each firing (Temporal Schedules)');

  addSessionFlags(
    addConnectionOptions(
      schedule
        .command('add')
        .description(
          'Create a schedule: at each firing of CRON (5 fields, local time) a new session runs PROMPT with these options',
        )
        .argument('<cron>', 'minute hour day-of-month month day-of-week, e.g. "0 2 * * *" (02:00 every day)')
        .argument('<prompt...>', 'what the agent should do at each firing'),
    ),
  )
    .option('--id <id>', 'schedule id; each session is <id>-<firing time> (default: generated)')
    .option('--tz <zone>', "IANA time zone of the cron (default: this machine's)")
    .option('--paused', 'create it paused')
    .option(
      '--max-budget-usd-per-day <usd>',
      "budget in US dollars for all of a day's firings (the schedule's zone); each firing runs with min(its own budget, what is left), a firing on a spent day is skipped",
      usdAmount('--max-budget-usd-per-day'),
    )
    .option(
      '--max-total-tokens-per-day <n>',
      "budget of N tokens for all of a day's firings, as --max-budget-usd-per-day",
      positiveInt('--max-total-tokens-per-day'),
    )
    .option('--json', 'JSON')
    .action(addSchedule);

  addConnectionOptions(
    schedule.command('ls').description('List the session schedules').option('--json', 'JSON lines'),
  ).action(async (o: ConnOpts) =>
    withClient(o, async (client) => {
      const all = await (await schedules()).listSessionSchedules(client);
      for (const s of all) print(o, s, scheduleText(s));
      if (all.length === 0 && !o.json) console.log('no schedules');
    }),
  );

  const act = (
    name: string,
    aliases: string[],
    description: string,
    fn: (client: Client, id: string) => Promise<void>,
    done: string,
  ): void => {
    const cmd = schedule
      .command(name)
      .description(description)
      .argument('<id>', 'schedule id')
      .option('--json', 'JSON');
    for (const a of aliases) cmd.alias(a);
    addConnectionOptions(cmd).action(async (id: string, o: ConnOpts) =>
      withClient(o, async (client) => {
        if (!id.trim()) throw new UsageError('the schedule id is empty');
        await fn(client, id);
        print(o, { scheduleId: id, [done]: true }, `schedule ${id} ${done}`);
      }),
    );
  };
  act(
    'rm',
    ['delete'],
    'Delete a schedule (the sessions it started stay)',
    async (c, id) => (await schedules()).deleteSessionSchedule(c, id),
    'deleted',
  );
  act(
    'pause',
    [],
    'Pause a schedule: no firing until it is resumed',
    async (c, id) => (await schedules()).pauseSessionSchedule(c, id),
    'paused',
  );
  act(
    'resume',
    ['unpause'],
    'Resume a paused schedule',
    async (c, id) => (await schedules()).unpauseSessionSchedule(c, id),
    'resumed',
  );
}
