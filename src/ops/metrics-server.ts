import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

// The worker has no HTTP app, so its metrics get a small server of their own: GET /metrics answers
// the worker's counters followed by the Temporal SDK's (its exporter listens on loopback only), so
// Prometheus scrapes one target per worker. Nothing else is served.

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(opts: {
  registry: Registry;
  host: string;
  port: number;
  /** The Temporal SDK exporter's address (host:port), appended when given. */
  sdkMetricsAddress?: string;
  warn: (message: string) => void;
}): Promise<MetricsServer> {
  const sdk = async (): Promise<string> => {
    if (!opts.sdkMetricsAddress) return '';
    try {
      const res = await fetch(`http://${opts.sdkMetricsAddress}/metrics`, { signal: AbortSignal.timeout(2000) });
      return res.ok ? await res.text() : '';
    } catch (err) {
      // The service's own counters are still worth a scrape when the SDK's exporter is not up.
      opts.warn(`Temporal SDK metrics unavailable: ${String(err)}`);
      return '';
    }
  };
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    Promise.all([opts.registry.metrics(), sdk()])
      .then(([own, temporal]) => {
        res.writeHead(200, { 'content-type': opts.registry.contentType, 'cache-control': 'no-store' });
        res.end(temporal ? `${own}\n${temporal}` : own);
      })
      .catch((err: unknown) => {
        opts.warn(`metrics scrape failed: ${String(err)}`);
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
