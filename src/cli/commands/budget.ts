// `durable-agent budget ID [--add <usd>] [--add-tokens <n>] [--on-budget end]` (issue 34): shows a
// session's tree budget, raises it (a Temporal Update whose validator refuses a negative, zero, NaN or
// absurd raise with the reason; a session waiting in budget_exceeded resumes where it stopped), or
// ends a session that waits over budget. The same checks run here first, so a bad flag fails before
// anything reaches the server.
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { BudgetRaise, BudgetView } from '../../core/budget';
import { UsageError, addConnectionOptions, print, withClient, type ConnOpts } from '../options';

type BudgetOpts = ConnOpts & { add?: number; addTokens?: number; onBudget?: 'end' };

/** Any number as typed (the validator says what is wrong with it, the same words here and on the server). */
const anyNumber = (name: string) => (v: string) => {
  const n = Number(v);
  if (v.trim() === '' || Number.isNaN(n)) throw new InvalidArgumentError(`${name} must be a number, got "${v}"`);
  return n;
};

export function addBudgetCommand(program: Command): void {
  addConnectionOptions(
    program
      .command('budget')
      .description("Show a session's budget, raise it (a session over budget resumes), or end it")
      .argument('<id>')
      .option('--add <usd>', 'raise the USD budget by this much', anyNumber('--add'))
      .option('--add-tokens <n>', 'raise the token budget by this many tokens', anyNumber('--add-tokens'))
      .addOption(new Option('--on-budget <what>', 'end: a session over budget ends instead').choices(['end']))
      .option('--json', 'JSON'),
  ).action(async (id: string, o: BudgetOpts) =>
    withClient(o, async (client) => {
      // The Temporal client side, loaded when the command runs (issue 32: `status` imports the texts below).
      const { WorkflowUpdateFailedError } = await import('@temporalio/client');
      const { budgetQuery, budgetUpdate } = await import('../../temporal/workflows/definitions');
      const { runningSession, sessionHandle } = await import('../../temporal/client');
      const handle = sessionHandle(client, id);
      const raise: BudgetRaise = {
        ...(o.add !== undefined ? { addUsd: o.add } : {}),
        ...(o.addTokens !== undefined ? { addTokens: o.addTokens } : {}),
        ...(o.onBudget === 'end' ? { end: true } : {}),
      };
      if (Object.keys(raise).length === 0) {
        await runningSession(client, id);
        const view = await handle.query(budgetQuery);
        print(o, { session: id, ...view }, budgetText(view));
        return;
      }
      if (raise.end && (raise.addUsd !== undefined || raise.addTokens !== undefined))
        throw new UsageError('--on-budget end ends the session: it takes no --add');
      await runningSession(client, id);
      let view: BudgetView;
      try {
        view = await handle.executeUpdate(budgetUpdate, { args: [raise] });
      } catch (err) {
        if (err instanceof WorkflowUpdateFailedError)
          throw new UsageError(`budget refused: ${err.cause?.message ?? err.message}`);
        throw err;
      }
      print(o, { session: id, ...view }, raise.end ? `${id} ends if it is over budget` : budgetText(view));
    }),
  );
}

/** One line: spent, limits, whether it is over. */
export function budgetText(v: BudgetView): string {
  const parts = [
    v.limitUsd !== undefined ? `$${v.spentUsd.toFixed(4)} of $${v.limitUsd.toFixed(4)}` : '',
    v.limitTokens !== undefined ? `${v.spentTokens} of ${v.limitTokens} tokens` : '',
  ].filter(Boolean);
  if (parts.length === 0) return 'no budget';
  return `budget: ${parts.join(', ')}${v.exceeded ? ' — exceeded' : ''}`;
}

/** `status`'s lines: the budget, its events (threshold, exceeded, raised), and what to do when over. */
export function budgetLines(v: BudgetView, id: string): string[] {
  return [
    `budget    ${budgetText(v).replace(/^budget: /, '')}${v.onBudget ? ` (over budget: ${v.onBudget})` : ''}`,
    ...v.events.map((e) => `budget    ${new Date(e.at).toISOString()} ${e.type}: ${e.message}`),
    ...(v.exceeded ? [`budget    resume with: durable-agent budget ${id} --add <usd>`] : []),
  ];
}
