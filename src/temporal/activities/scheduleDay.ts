// `scheduleDaySpend` (issue 34, core/scheduleDay.ts): a schedule's firing sums what the schedule's
// earlier firings of the same day spent, before anything of it runs. The firings are listed from
// visibility by Temporal's own search attributes of scheduled workflows (TemporalScheduledById, the
// nominal TemporalScheduledStartTime; a schedule's firings never overlap: BUFFER_ONE, so each earlier
// one has started long before); each one's spend is the whole tree's spend as the session itself
// counts it (its children's reports included): a completed session's result carries it, any other
// answers its `budget` query. The result is recorded in the firing's history: a replay or a worker restart reads it back.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { BudgetSpend, BudgetView } from '../../core/budget';
import { QUERIES } from '../../core/ids';
import type { ModelUsage } from '../../core/modelUsage';
import {
  dailyBudgetProblem,
  daySpendWith,
  firingTimeOf,
  sessionSpendWith,
  type DailyBudget,
  type DaySpend,
} from '../../core/scheduleDay';

export interface ScheduleDaySpendInput {
  dailyBudget: DailyBudget;
  /** The asking firing's id (`<schedule id>-<nominal time>`): its day, and left out of the sum. */
  sessionId: string;
  /** Its start (workflow time): the day when the id carries no nominal time. */
  startedAtMs: number;
}

export function createScheduleDayActivities() {
  async function scheduleDaySpend(input: ScheduleDaySpendInput): Promise<DaySpend> {
    const problem = dailyBudgetProblem(input?.dailyBudget);
    if (problem) throw ApplicationFailure.nonRetryable(`daily budget: ${problem}`, 'INVALID_SESSION_INPUT');
    const { scheduleId, timeZone } = input.dailyBudget;
    const client = Context.current().client;
    return daySpendWith(
      {
        scheduleId,
        timeZone,
        atMs: firingTimeOf(input.sessionId, scheduleId) ?? input.startedAtMs,
        exclude: input.sessionId,
      },
      {
        list: async (query) => {
          // The raw list (as `ls` reads it): ids only, no memo decoded.
          const ids: string[] = [];
          let nextPageToken: Uint8Array | undefined;
          do {
            const page = await client.workflowService.listWorkflowExecutions({
              namespace: client.options.namespace,
              query,
              ...(nextPageToken ? { nextPageToken } : {}),
            });
            for (const e of page.executions ?? []) if (e.execution?.workflowId) ids.push(e.execution.workflowId);
            nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
            Context.current().heartbeat();
          } while (nextPageToken);
          return ids;
        },
        spend: async (id) => firingSpend(client, id),
      },
    );
  }
  return { scheduleDaySpend };
}

type ActivityClient = ReturnType<typeof Context.current>['client'];

/** One earlier firing's tree spend: a completed one's result, else its queries (core/scheduleDay.ts sessionSpendWith). */
export async function firingSpend(client: ActivityClient, sessionId: string): Promise<BudgetSpend> {
  const handle = client.workflow.getHandle(sessionId);
  return sessionSpendWith({
    completedResult: async () =>
      (await handle.describe()).status.name === 'COMPLETED' ? await handle.result() : undefined,
    budget: () => handle.query<BudgetView>(QUERIES.budget),
    status: () => handle.query<{ modelUsage?: ModelUsage }>(QUERIES.status),
  });
}
