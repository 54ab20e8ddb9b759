import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { DEFAULT_DELIVERY_POLICY, type DeliveryPolicy } from '../model/partners.js';
import {
  deliveryWorkflowId,
  eventsRecordedSignal,
  type DeliveryStart,
} from '../../workflows/partners/delivery-definitions.js';

// The partner status delivery workflow's one client (docs/refusals.md, "Temporal failures"; docs/
// partners.md): the event pump in every worker, and an event's replay, tell a booking's delivery
// workflow (one per partner and booking) to look at its events now, here. Nothing else in src/,
// activities/ or scripts/ may import the workflow's messages (ESLint).

/** The workflow type a booking's delivery runs as. */
export const PARTNER_DELIVERY_WORKFLOW_TYPE = 'partnerDeliveryWorkflow';

export interface DeliveryTarget {
  partnerId: string;
  bookingRef: string;
}

export class PartnerDeliveryClient {
  constructor(
    private readonly temporal: Client,
    /** Where the deliveries run (the worker's task queue). */
    private readonly taskQueue: string,
    /** The retry policy the deliveries it starts are given (tests shorten it). */
    readonly policy: DeliveryPolicy = DEFAULT_DELIVERY_POLICY,
  ) {}

  private start(t: DeliveryTarget) {
    const args: [DeliveryStart] = [
      {
        partnerId: t.partnerId,
        bookingRef: t.bookingRef,
        ...(this.policy !== DEFAULT_DELIVERY_POLICY ? { policy: this.policy } : {}),
      },
    ];
    return { workflowId: deliveryWorkflowId(t.partnerId, t.bookingRef), taskQueue: this.taskQueue, args };
  }

  /** "Look now": signals the booking's delivery workflow, starting it if it is not running. */
  async signal(t: DeliveryTarget): Promise<void> {
    await this.temporal.workflow.signalWithStart(PARTNER_DELIVERY_WORKFLOW_TYPE, {
      ...this.start(t),
      signal: eventsRecordedSignal,
      signalArgs: [],
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    });
  }

  /** Starts the booking's delivery workflow unless it is running; a running one is left alone (nothing added to its history). */
  async ensure(t: DeliveryTarget): Promise<void> {
    await this.temporal.workflow.start(PARTNER_DELIVERY_WORKFLOW_TYPE, {
      ...this.start(t),
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    });
  }
}
