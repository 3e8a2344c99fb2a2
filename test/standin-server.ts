// C38: the integrations' stand-in (test/standin.ts) over HTTP on this machine, for the tests that
// run `npm run dev` with INTEGRATIONS_API_BASE pointing at it.
import { createServer, type Server } from 'node:http';
import type { StandIn } from './standin.ts';

/** Serves the stand-in on a free port of 127.0.0.1; returns its origin and how to stop it. */
export function serveStandIn(s: StandIn): Promise<{ origin: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const request = new Request(`http://127.0.0.1${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
    });
    const answer = await s.handle(request);
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      resolve({ origin: `http://127.0.0.1:${port}`, server });
    }),
  );
}
