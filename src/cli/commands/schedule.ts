// `durable-agent schedule add|ls|rm|pause|resume`: Temporal Schedules that start a NEW unattended
// session at each firing (src/temporal/schedules.ts). `add` takes `run`'s session flags and builds and checks
// the session exactly as `run` does (steps 1–7 of run.ts) before it creates anything.
import type { Command } from 'commander';
import {
  checkCron,
  checkScheduleId,
  checkTimeZone,
  createSessionSchedule,
  localTimeZone,
  deleteSessionSchedule,
  listSessionSchedules,
  pauseSessionSchedule,
  unpauseSessionSchedule,
  type SessionScheduleInfo,
} from '../../temporal/schedules';
import { CheckoutNotTrustedError } from '../../sessionInput';
import { checkoutRefusal } from '../../worktree/git/checkoutControl';
import { addConnectionOptions, print, UsageError, withClient, type ConnOpts } from '../options';
import { addSessionFlags, buildRunSession, type RunOpts } from './run';

/** One schedule in one or two lines. */
function scheduleText(s: SessionScheduleInfo): string {
  const when = s.paused ? `paused${s.note ? ` (${s.note})` : ''}` : `next ${s.next[0] ?? '—'}`;
  const last = s.recent[s.recent.length - 1];
  return (
    `${s.scheduleId}  "${s.cron}" (${s.timeZone})  ${when}  ${s.prompt.replace(/\s+/g, ' ').slice(0, 60)}` +
    (last ? `\n    last session: ${last.session}` : '')
  );
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
    .option('--json', 'JSON')
    .action(
      async (cron: string, promptWords: string[], o: RunOpts & { id?: string; tz?: string; paused?: boolean }) => {
        const { id, tz, paused, ...run } = o;
        // The schedule's own input first: one line, before the session is built or the server asked.
        checkCron(cron, checkTimeZone(tz ?? localTimeZone()));
        if (id) checkScheduleId(id);
        // The schedule id is not the session id: every firing has its own.
        const { opts } = await buildRunSession(promptWords, run as RunOpts);
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
              },
            );
          } catch (err) {
            // The same lines and refusal as `run` (src/sessionInput.ts checkoutAtStart): nothing was created.
            if (!(err instanceof CheckoutNotTrustedError)) throw err;
            for (const line of err.lines) process.stderr.write(`${line}\n`);
            throw new UsageError(checkoutRefusal(err.control, 'add the schedule again with --trust-checkout'));
          }
          for (const line of s.checkout ?? []) process.stderr.write(`${line}\n`);
          print(
            o,
            s,
            `schedule ${s.scheduleId} created: "${s.cron}" (${s.timeZone}), ${s.paused ? 'paused' : `next firing ${s.next[0] ?? '—'}`}; each firing starts session ${s.scheduleId}-<firing time>`,
          );
        });
      },
    );

  addConnectionOptions(
    schedule.command('ls').description('List the session schedules').option('--json', 'JSON lines'),
  ).action(async (o: ConnOpts) =>
    withClient(o, async (client) => {
      const all = await listSessionSchedules(client);
      for (const s of all) print(o, s, scheduleText(s));
      if (all.length === 0 && !o.json) console.log('no schedules');
    }),
  );

  const act = (
    name: string,
    aliases: string[],
    description: string,
    fn: (client: Parameters<typeof deleteSessionSchedule>[0], id: string) => Promise<void>,
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
  act('rm', ['delete'], 'Delete a schedule (the sessions it started stay)', deleteSessionSchedule, 'deleted');
  act('pause', [], 'Pause a schedule: no firing until it is resumed', (c, id) => pauseSessionSchedule(c, id), 'paused');
  act('resume', ['unpause'], 'Resume a paused schedule', (c, id) => unpauseSessionSchedule(c, id), 'resumed');
}
