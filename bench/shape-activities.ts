// The no-op activities of bench/workflows.ts's bookingShapeWorkflow, registered by
// bench/baseline-worker.ts: a step's local activity, and the passenger's message.

/** Stands for a step's local activity (the record, a claim, a status write, the payment). */
export async function shapeStep(step: string): Promise<string> {
  return step;
}

/** Stands for the message activity a booking's acceptance schedules (tellPassenger). */
export async function shapeMessage(step: string): Promise<string> {
  return step;
}
