import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../../activities/index.js';

// Under tsx this module is TypeScript and bundles the workflow sources; in the production build it
// is compiled JavaScript and bundles the compiled workflows beside it.
const here = fileURLToPath(import.meta.url);
export const WORKFLOWS_PATH = path.resolve(path.dirname(here), `../../workflows/index${path.extname(here)}`);

/** Builds a worker for the service's task queue; entry points and tests share this. */
export async function createWorker(opts: {
  address: string;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  workflowBundle?: WorkerOptions['workflowBundle'];
  identity?: string;
}): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: opts.address });
  const worker = await Worker.create({
    connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    activities: createActivities(opts.deps),
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
    ...(opts.identity ? { identity: opts.identity } : {}),
    // Workers drain in-flight activities on shutdown instead of abandoning them.
    shutdownGraceTime: '10s',
  });
  return { worker, connection };
}
