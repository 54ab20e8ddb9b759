// Does eager workflow start pay for a worker in the API process? (issue 25, item 4)
//   BENCH_TOPOLOGY=cluster npx tsx bench/eager-start.ts
// Three ways to start the same empty workflow, taken in turn in rounds at one concurrency, with the
// CPU each process used per start:
//   1. grpc-js client (what src/server.ts uses today) -> a worker in another process (the baseline
//      the quote bench compares against);
//   2. a client on the worker package's NativeConnection (Rust core) -> the same remote worker;
//   3. the NativeConnection client with requestEagerStart -> a worker in this process on that
//      connection: the server hands the first workflow task back with the start's reply, skipping
//      matching and the remote worker's poll.
// The third kind counts how many starts the server really took eagerly (the start's reply carries
// the first workflow task: the handle's eagerlyStarted), so a server or SDK that silently declined
// eager start shows as "eager 0 of N".
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { installWorkerLogging } from '../src/temporal/runtime-logging.js';
import { connectTemporal } from '../src/temporal/connection.js';
import { freePort } from '../dev/free-port.js';
import { addCpu, cpuPerOperation, cpuSnapshot, printCpuTable, type CpuSnapshot } from './cpu.js';
import {
  closedLoop,
  mergeRounds,
  printTable,
  rounds,
  startBenchStack,
  startProcess,
  type LoadResult,
} from './support.js';

const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const here = path.dirname(fileURLToPath(import.meta.url));

installWorkerLogging('warn');
const stack = await startBenchStack({ postgres: await freePort(), temporal: await freePort() });
const remoteQueue = `bench-eager-remote-${randomUUID().slice(0, 6)}`;
const localQueue = `bench-eager-local-${randomUUID().slice(0, 6)}`;
const baseline = startProcess('bench/baseline-worker.ts', {
  TEMPORAL_ADDRESS: stack.temporalAddress,
  BENCH_BASELINE_TASK_QUEUE: remoteQueue,
  LOG_LEVEL: 'warn',
});
const grpc = await connectTemporal({ address: stack.temporalAddress, namespace: 'default' });
const native = await NativeConnection.connect({ address: stack.temporalAddress });
const nativeClient = new Client({ connection: native, namespace: 'default' });
const worker = await Worker.create({
  connection: native,
  namespace: 'default',
  taskQueue: localQueue,
  workflowsPath: path.join(here, 'workflows.ts'),
});
const running = worker.run();

try {
  console.log(
    `bench eager-start: ${connections} concurrent, ${seconds} s each in ${rounds} rounds, Temporal ${stack.temporalAddress} (${stack.topology})`,
  );
  const startGrpc = () =>
    grpc.client.workflow
      .start('noopWorkflow', { workflowId: `eager-a-${randomUUID()}`, taskQueue: remoteQueue })
      .then(() => undefined);
  const startNative = () =>
    nativeClient.workflow
      .start('noopWorkflow', { workflowId: `eager-b-${randomUUID()}`, taskQueue: remoteQueue })
      .then(() => undefined);
  const eagerness = { eager: 0, all: 0 };
  const startEager = async () => {
    const h = await nativeClient.workflow.start('noopWorkflow', {
      workflowId: `eager-c-${randomUUID()}`,
      taskQueue: localQueue,
      requestEagerStart: true,
    });
    eagerness.all++;
    if (h.eagerlyStarted) eagerness.eager++;
  };
  // Warm every path (JIT, pools, the workflow bundle's first isolate).
  for (const f of [startGrpc, startNative, startEager]) await closedLoop('warm-up', connections, 2, f);
  Object.assign(eagerness, { eager: 0, all: 0 });

  const phases = [
    {
      label: 'grpc-js client, remote worker',
      call: startGrpc,
      parts: [] as LoadResult[],
      cpu: new Map() as CpuSnapshot,
    },
    {
      label: 'native client, remote worker',
      call: startNative,
      parts: [] as LoadResult[],
      cpu: new Map() as CpuSnapshot,
    },
    {
      label: 'native client, eager, worker in process',
      call: startEager,
      parts: [] as LoadResult[],
      cpu: new Map() as CpuSnapshot,
    },
  ];
  for (let r = 0; r < rounds; r++) {
    for (const p of phases) {
      const t0 = cpuSnapshot();
      p.parts.push(await closedLoop(p.label, connections, seconds / rounds, p.call));
      addCpu(p.cpu, t0, cpuSnapshot());
    }
  }
  const merged = phases.map((p) => mergeRounds(p.label, p.parts));
  printTable(merged);
  const base = merged[0]!.perSecond;
  for (const m of merged.slice(1)) console.log(`${m.name} / grpc-js remote: ${(m.perSecond / base).toFixed(2)}`);

  console.log(`eager starts taken by the in-process worker: ${eagerness.eager} of ${eagerness.all}`);
  // The bench client is this process: for the eager phase it includes the in-process worker.
  printCpuTable(
    phases.map((p, i) => ({ label: p.label, perOp: cpuPerOperation(new Map(), p.cpu, merged[i]!.requests) })),
  );
} finally {
  worker.shutdown();
  await running;
  await native.close();
  await grpc.connection.close();
  await baseline.stop();
  await stack.stop();
}
