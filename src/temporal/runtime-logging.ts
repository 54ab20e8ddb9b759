import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';

/**
 * The worker SDK logs each workflow bundle build and state change at INFO; keep those out of the
 * service's output unless debugging. Runtime.install is once per process, so the SDK's own
 * Prometheus exporter (task latencies, slots, polls, sticky cache) is switched on here too when
 * the worker serves metrics.
 */
export function installWorkerLogging(level: string, opts: { sdkMetricsAddress?: string } = {}): void {
  const sdkLevel: LogLevel = level === 'debug' || level === 'trace' ? 'DEBUG' : 'WARN';
  Runtime.install({
    logger: new DefaultLogger(sdkLevel),
    ...(opts.sdkMetricsAddress
      ? {
          telemetryOptions: {
            metrics: { prometheus: { bindAddress: opts.sdkMetricsAddress, useSecondsForDurations: true } },
          },
        }
      : {}),
  });
}
