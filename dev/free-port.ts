import net from 'node:net';

/**
 * A TCP port nothing listens on right now, for a server about to be started: parallel test runs
 * and benchmarks on one machine never collide on fixed ports.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no port assigned'))));
    });
  });
}

/**
 * A port nothing listens on, drawn from [min, max). Temporal's membership ports must stay below
 * the ephemeral range (32768 up on Linux), where freePort's answers come from.
 */
export async function freePortBelowEphemeral(
  taken: ReadonlySet<number> = new Set(),
  min = 20_000,
  max = 32_768,
): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = min + Math.floor(Math.random() * (max - min));
    if (!taken.has(port) && (await canListen(port))) return port;
  }
  throw new Error(`no free port in [${min}, ${max})`);
}

/** Whether a server could listen on the port (on 127.0.0.1) right now. */
export function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * `preferred` when it and the next port are free, else another free pair: a worker's metrics
 * endpoint and, one above it, the Temporal SDK's exporter it reads. A second `npm start` (or a test
 * starting one) then still starts, on other ports, and says which.
 */
export async function freePortPair(preferred: number, taken: ReadonlySet<number> = new Set()): Promise<number> {
  if (
    !taken.has(preferred) &&
    !taken.has(preferred + 1) &&
    (await canListen(preferred)) &&
    (await canListen(preferred + 1))
  )
    return preferred;
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = await freePortBelowEphemeral(taken);
    if (!taken.has(port + 1) && (await canListen(port + 1))) return port;
  }
  throw new Error('no free pair of ports for the worker metrics');
}
