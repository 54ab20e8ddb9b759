import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';

/**
 * The worker SDK logs each workflow bundle build and state change at INFO; keep those out of the
 * service's output unless debugging.
 */
export function installWorkerLogging(level: string): void {
  const sdkLevel: LogLevel = level === 'debug' || level === 'trace' ? 'DEBUG' : 'WARN';
  Runtime.install({ logger: new DefaultLogger(sdkLevel) });
}
