// `deliverNotification`: one webhook delivery of a session notification (the core:
// src/runtime/notify.ts), retried by the session's retry policy; a receiver's lasting refusal
// (4xx but 408/429) fails it for good, so the session stops trying.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import {
  deliverNotificationWith,
  NotificationRejectedError,
  type DeliverNotificationInput,
} from '../../runtime/notify';

export function createNotifyActivities() {
  async function deliverNotification(input: DeliverNotificationInput): Promise<{ status: number }> {
    try {
      return await deliverNotificationWith(input, Context.current().cancellationSignal);
    } catch (err) {
      if (err instanceof NotificationRejectedError)
        throw ApplicationFailure.nonRetryable(err.message, 'NotificationRejected');
      throw err;
    }
  }
  return { deliverNotification };
}
