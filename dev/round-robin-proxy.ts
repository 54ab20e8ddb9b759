import http from 'node:http';

export interface RoundRobinProxy {
  /** Requests sent to each target, in the order given. */
  served: number[];
  close(): Promise<void>;
}

/**
 * A load balancer at `port` sending each request to the next of `targets` in turn: two or more
 * API processes behind one public address, as production runs them (`npm run start:cluster`, the
 * OAuth tests). A target that is down answers 502, as a real balancer's would before its health
 * check notices; clients retry with their Idempotency-Key.
 */
export async function startRoundRobinProxy(
  port: number,
  targets: readonly number[],
  opts: {
    host?: string;
    /** Append the caller's address to X-Forwarded-For (targets run with TRUST_PROXY). */ forwardedFor?: boolean;
  } = {},
): Promise<RoundRobinProxy> {
  const served = targets.map(() => 0);
  let next = 0;
  const server = http.createServer((req, res) => {
    const i = next++ % targets.length;
    served[i] = (served[i] ?? 0) + 1;
    const headers = { ...req.headers };
    if (opts.forwardedFor) {
      const caller = req.socket.remoteAddress ?? '';
      headers['x-forwarded-for'] = headers['x-forwarded-for']
        ? `${String(headers['x-forwarded-for'])}, ${caller}`
        : caller;
    }
    const upstream = http.request(
      { host: '127.0.0.1', port: targets[i], method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, opts.host ?? '127.0.0.1', resolve);
  });
  return {
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
