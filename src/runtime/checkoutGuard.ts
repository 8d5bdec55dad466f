// A schedule's firing and a checkout (issue 30, class 3; docs/security.md "Checkouts"). The session
// input of a schedule was built and checked when the schedule was created (`schedule add`: the
// person saw the lines or trusted them); a firing runs hours or days later with nobody at the
// terminal. Before anything of the session runs, the worker that has its directory compares the
// control files again with the main checkout's — the same function as every start
// (`controlFilesFromCheckout`), with the schedule's creation as the last session the person
// trusted — and a checkout recorded since that brought or took away control files refuses the
// firing: the session fails naming them, and the schedule is paused with a note that says so.
import { checkoutLines, checkoutRefusal, controlFilesFromCheckout } from '../worktree/git/checkoutControl';

export interface CheckoutGuardInput {
  cwd: string;
  since: string;
  runFiles: string[];
  scheduleId?: string;
}

export type CheckoutGuardResult =
  | { refused: false }
  /** `reason`: the session's end reason (the lines and the refusal); `paused`: whether the schedule was paused. */
  | { refused: true; lines: string[]; reason: string; paused: boolean };

/** The guard's core; `pause` pauses the firing's schedule with a note (the activity's client), false when it could not. */
export async function checkCheckoutGuardWith(
  input: CheckoutGuardInput,
  pause?: (scheduleId: string, note: string) => Promise<boolean>,
): Promise<CheckoutGuardResult> {
  const control = await controlFilesFromCheckout(input.cwd, input.runFiles, input.since);
  if (!control || control.changes.length === 0) return { refused: false };
  const lines = checkoutLines(control, input.cwd);
  const how = input.scheduleId
    ? `remove the schedule and add it again with --trust-checkout (durable-agent schedule rm ${input.scheduleId})`
    : 'start it again with --trust-checkout';
  const reason = `${lines.join('\n')}\n${checkoutRefusal(control, how)}`;
  const note = `paused: a firing was refused, control files came with a checkout of ${input.cwd} after the schedule was created: ${control.changes
    .map((c) => `${c.path} (${c.change})`)
    .join(', ')}`;
  const paused = input.scheduleId && pause ? await pause(input.scheduleId, note.slice(0, 1000)) : false;
  return { refused: true, lines, reason, paused };
}
