// A worker for the benchmarks' baseline workflows (bench/workflows.ts) only, on a task queue of its
// own: the baselines stay out of the production bundle, and the service's worker is measured as it
// ships. Started by bench/quote.ts and bench/dispatch.ts beside src/worker.ts.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from '@temporalio/worker';
import { installWorkerLogging } from '../src/temporal/runtime-logging.js';
import * as activities from './shape-activities.js';

const address = process.env.TEMPORAL_ADDRESS ?? 'localhost:7233';
const taskQueue = process.env.BENCH_BASELINE_TASK_QUEUE ?? 'bench-baseline';
installWorkerLogging('warn');
const connection = await NativeConnection.connect({ address });
const worker = await Worker.create({
  connection,
  namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
  taskQueue,
  activities,
  workflowsPath: path.join(path.dirname(fileURLToPath(import.meta.url)), 'workflows.ts'),
});
console.log(`[bench-baseline] polling task queue "${taskQueue}"`);
await worker.run();
await connection.close();
