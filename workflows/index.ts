// The worker's workflow bundle entry point: every workflow type the worker runs is exported here.
export { quoteWorkflow } from './quote.js';
export { noopWorkflow, signalRoundTripWorkflow } from './noop.js';
export { bookingWorkflow } from './booking.js';
