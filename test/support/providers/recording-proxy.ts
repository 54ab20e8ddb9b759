// A loopback front that passes every request on unchanged to a target server and keeps what went
// by: how a test sees what the service sent a provider (or a provider sent the service) when the
// adapter under test is built inside the stack, where no fetch of the test's can be slipped in.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Exchange {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
  reply: string;
}

export interface RecordingProxy {
  url: string;
  exchanges: Exchange[];
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const exchanges: Exchange[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && k !== 'host' && k !== 'content-length' && k !== 'connection') headers[k] = v;
      const init: RequestInit = { method: req.method ?? 'GET', headers };
      if (req.method !== 'GET' && req.method !== 'HEAD') init.body = body;
      fetch(`${target}${req.url ?? '/'}`, init)
        .then(async (r) => {
          const reply = await r.text();
          exchanges.push({
            method: init.method!,
            path: req.url ?? '/',
            headers: req.headers,
            body,
            status: r.status,
            reply,
          });
          res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' }).end(reply);
        })
        .catch((err: unknown) => {
          exchanges.push({
            method: init.method!,
            path: req.url ?? '/',
            headers: req.headers,
            body,
            status: 502,
            reply: String(err),
          });
          res.writeHead(502).end();
        });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
