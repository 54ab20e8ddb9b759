import { Context } from '@temporalio/activity';

/**
 * The workflow type of the activity's caller (a booking record keeps which workflow runs it);
 * null when the function is called outside an activity, as some tests call it.
 */
export function callerWorkflowType(): string | null {
  try {
    return Context.current().info.workflowType ?? null;
  } catch {
    return null;
  }
}
