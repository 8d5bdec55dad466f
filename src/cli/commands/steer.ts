// The commands that steer an existing session: interrupt, send, approve, deny, cancel.
import type { Command } from 'commander';
import {
  UsageError,
  addConnectionOptions,
  identity,
  print,
  sessionExists,
  withClient,
  type ConnOpts,
} from '../options';

/** The client helpers (and the Temporal client under them), loaded when a command runs (issue 32). */
const clientHelpers = () => import('../../temporal/client');

export function addInterruptCommand(program: Command): void {
  addConnectionOptions(
    program
      .command('interrupt')
      .description('Interrupt the running turn (in-flight tools are cancelled)')
      .argument('<id>')
      .option('--json', 'JSON'),
  ).action(async (id: string, o: ConnOpts) =>
    withClient(o, async (client) => {
      await (await clientHelpers()).interruptSession(client, id, identity());
      print(o, { session: id, interrupted: true }, `interrupt sent to ${id}`);
    }),
  );
}

export function addSendCommand(program: Command): void {
  addConnectionOptions(
    program
      .command('send')
      .description('Send a follow-up message to a session')
      .argument('<id>')
      .argument('<message...>')
      .option('--json', 'JSON'),
  ).action(async (id: string, words: string[], o: ConnOpts) =>
    withClient(o, async (client) => {
      const text = words.join(' ').trim();
      if (!text) throw new UsageError('the message is empty');
      await (await clientHelpers()).sendMessage(client, id, text);
      print(o, { session: id, sent: text }, `message sent to ${id}`);
    }),
  );
}

export function addApproveCommand(program: Command): void {
  addConnectionOptions(
    program
      .command('approve')
      .description('Approve a pending tool call')
      .argument('<id>')
      .argument('[tool_use_id]')
      .option('--by <identity>', 'who approves', identity())
      .option('--json', 'JSON'),
  ).action(async (id: string, toolUseId: string | undefined, o: ConnOpts & { by: string }) =>
    withClient(o, async (client) => {
      const r = await (await clientHelpers()).approveToolUse(client, id, toolUseId, o.by);
      print(
        o,
        { session: id, decision: 'approve', ...r },
        r.status === 'applied'
          ? `approved ${r.toolUseId}`
          : r.status === 'not_applied'
            ? notAppliedText(r)
            : pendingText('approve', id, r),
      );
      if (r.status === 'not_applied') process.exitCode = 1;
    }),
  );
}

export function addDenyCommand(program: Command): void {
  addConnectionOptions(
    program
      .command('deny')
      .description('Deny a pending tool call')
      .argument('<id>')
      .argument('[tool_use_id]')
      .option('--reason <text>', 'told to the model')
      .option('--by <identity>', 'who denies', identity())
      .option('--json', 'JSON'),
  ).action(async (id: string, toolUseId: string | undefined, o: ConnOpts & { reason?: string; by: string }) =>
    withClient(o, async (client) => {
      const r = await (await clientHelpers()).denyToolUse(client, id, toolUseId, o.reason, o.by);
      print(
        o,
        { session: id, decision: 'deny', ...r },
        r.status === 'applied'
          ? `denied ${r.toolUseId}`
          : r.status === 'not_applied'
            ? notAppliedText(r)
            : pendingText('deny', id, r),
      );
      if (r.status === 'not_applied') process.exitCode = 1;
    }),
  );
}

export function addCancelCommand(program: Command): void {
  addConnectionOptions(
    program
      .command('cancel')
      .description('Cancel a session (in-flight tools are cancelled)')
      .argument('<id>')
      .option('--json', 'JSON'),
  ).action(async (id: string, o: ConnOpts) =>
    withClient(o, async (client) => {
      await sessionExists(client, id);
      await (await clientHelpers()).sessionHandle(client, id).cancel();
      print(o, { session: id, cancelled: true }, `cancel requested for ${id}`);
    }),
  );
}

/** An approve/deny that came too late: what counted instead. */
function notAppliedText(r: { toolUseId: string; decision: 'approve' | 'deny'; outcome: string }): string {
  return `not applied: ${r.toolUseId} was ${r.decision === 'approve' ? 'approved' : 'denied'} — ${r.outcome}`;
}

/** An approve/deny that the server holds until a worker takes it: say so, and how to check. */
function pendingText(decision: 'approve' | 'deny', id: string, r: { toolUseId?: string; taskQueue: string }): string {
  return (
    `${decision} of ${r.toolUseId ?? 'the pending call'} sent to ${id}, but no worker has taken it yet: it is applied when a worker ` +
    `for task queue ${r.taskQueue} runs (unless the Temporal server restarts first). Check with: durable-agent status ${id}`
  );
}
