// The worker's workflow bundle entry point: every workflow type the service runs, and nothing else
// (benchmark baselines run from bench/ on a worker of their own).
export { quoteWorkflow } from './quotes/workflow.js';
export { bookingWorkflow } from './bookings/workflow.js';
export { billWeekWorkflow, driverSubscriptionWorkflow } from './billing/workflow.js';
export { invoiceCollectionWorkflow } from './billing/collection.js';
export { partnerBillingWorkflow } from './billing/partner-billing.js';
export { driverLicenceWorkflow } from './drivers/workflow.js';
export { driverSuspensionWorkflow } from './drivers/suspension.js';
export { driverLocationWatchWorkflow } from './drivers/location-watch.js';
export { partnerJobWorkflow } from './partners/job-workflow.js';
export { partnerDeliveryWorkflow } from './partners/delivery.js';
export { opsWatchWorkflow } from './ops/workflow.js';
