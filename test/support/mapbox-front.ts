// Mapbox's Directions API as a driver's key meets it, for tests: Mapbox publishes no mock server,
// so this stands in for its front door (the documented path /directions/v5/mapbox/driving/{coords},
// the `access_token` query parameter, 401 `{"message":"Not Authorized - Invalid Token"}` for a
// token it does not know) and hands the route itself to a real OSRM, whose answer is the shape
// Mapbox's Directions API returns (`code`, `routes[].distance` in metres, `.duration` in seconds).
import { createServer, type Server } from 'node:http';
import { freePort } from '../../dev/free-port.js';

export interface MapboxFront {
  url: string;
  /** Every request, in order: the token it carried and the coordinates it asked for. */
  calls: { token: string | null; coords: string }[];
  /** Tokens it lets in; remove one to have Mapbox turn a key down in use. */
  tokens: Set<string>;
  close(): Promise<void>;
}

export async function startMapboxFront(osrmUrl: string, tokens: string[]): Promise<MapboxFront> {
  const front: Omit<MapboxFront, 'url' | 'close'> = { calls: [], tokens: new Set(tokens) };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://front');
    const m = /^\/directions\/v5\/mapbox\/driving\/([^/]+)$/.exec(url.pathname);
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (!m) return reply(404, { message: 'Not Found' });
    const token = url.searchParams.get('access_token');
    front.calls.push({ token, coords: decodeURIComponent(m[1]!) });
    if (!token || !front.tokens.has(token)) return reply(401, { message: 'Not Authorized - Invalid Token' });
    fetch(`${osrmUrl}/route/v1/driving/${m[1]}?overview=false`)
      .then(async (r) => reply(r.status, await r.json()))
      .catch(() => reply(502, { message: 'upstream' }));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    ...front,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
