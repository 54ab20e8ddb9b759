// The worker's workflow bundle entry point: every workflow type the service runs, and nothing else
// (benchmark baselines run from bench/ on a worker of their own).
export { quoteWorkflow } from './quotes/workflow.js';
// bookingWorkflow is v1, frozen as released in 0.4.0: it finishes the bookings started before v2 and
// replays the released histories; it is deleted once none runs (docs/versioning.md, the drain rule).
export { bookingWorkflow } from './bookings/v1/workflow.js';
// Every booking made since issue 34, released in 1.0.0: changed from here only behind a patch or a
// new name (docs/versioning.md, "What a release promises").
export { bookingWorkflowV2 } from './bookings/workflow.js';
export { billWeekWorkflow, driverSubscriptionWorkflow } from './billing/workflow.js';
export { invoiceCollectionWorkflow } from './billing/collection.js';
export { partnerBillingWorkflow } from './billing/partner-billing.js';
export { driverLicenceWorkflow } from './drivers/workflow.js';
export { driverSuspensionWorkflow } from './drivers/suspension.js';
export { driverLocationWatchWorkflow } from './drivers/location-watch.js';
export { partnerJobWorkflow } from './partners/job-workflow.js';
export { partnerDeliveryWorkflow } from './partners/delivery.js';
export { opsWatchWorkflow } from './ops/workflow.js';
export { recordsRetentionWorkflow } from './records/workflow.js';
