// `checkCheckoutGuard`: a schedule's firing checks the checkout record before anything of the
// session runs (the core: src/runtime/checkoutGuard.ts), and pauses the schedule when it refuses —
// with the activity's own client, the worker's connection to the server.
import { Context } from '@temporalio/activity';
import { checkCheckoutGuardWith, type CheckoutGuardInput, type CheckoutGuardResult } from '../../runtime/checkoutGuard';

export function createCheckoutGuardActivities() {
  async function checkCheckoutGuard(input: CheckoutGuardInput): Promise<CheckoutGuardResult> {
    return checkCheckoutGuardWith(input, async (scheduleId, note) => {
      try {
        await Context.current().client.schedule.getHandle(scheduleId).pause(note);
        return true;
      } catch {
        return false; // the refusal stands; the session's failure still names the files
      }
    });
  }
  return { checkCheckoutGuard };
}
