// The load generator of `npm run bench`, in its own process: autocannon sends exactly `amount`
// requests, so every reply is counted; the time is taken from the first request to the last reply
// (autocannon's own duration is rounded up to its one-second ticks).
import autocannon from 'autocannon';

type Options = {
  url: string;
  connections: number;
  amount: number;
  headers: Record<string, string>;
  body: string;
  /** Each request with one of this many user agents in turn (C40: that many visitors), if given. */
  visitors?: number;
  /** A member of the body made new for each request (C45: a unique field's value), if given. */
  distinct?: string;
};
const options = JSON.parse(process.argv[2] ?? '{}') as Options;

let started = 0;
let finished = 0;
let replies = 0;
const instance = autocannon(
  {
    url: options.url,
    connections: options.connections,
    amount: options.amount,
    method: 'POST',
    headers: options.headers,
    body: options.body,
    ...(options.visitors === undefined && options.distinct === undefined
      ? {}
      : {
          // Each connection its own visitors: request n of a connection is visitor n mod `visitors`;
          // and its own distinct values: request n's is `<connection>-<n>@example.com`.
          setupClient: (client: {
            setHeaders(h: Record<string, string>): void;
            setBody(b: string): void;
            on(e: string, f: () => void): void;
          }) => {
            const id = Math.random().toString(36).slice(2);
            let n = 0;
            const next = () => {
              if (options.visitors !== undefined) {
                client.setHeaders({
                  ...options.headers,
                  'User-Agent': `bench ${id} ${n % options.visitors}`,
                });
              }
              if (options.distinct !== undefined) {
                const body = JSON.parse(options.body) as Record<string, unknown>;
                client.setBody(JSON.stringify({ ...body, [options.distinct]: `${id}-${n}@example.com` }));
              }
              n += 1;
            };
            next();
            client.on('response', next);
          },
        }),
  },
  (err, result) => {
    if (err) throw err;
    const seconds = (finished - started) / 1000;
    process.stdout.write(
      JSON.stringify({
        rps: result.requests.total / seconds,
        seconds,
        p50: result.latency.p50,
        p99: result.latency.p99,
        ok: result['2xx'],
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        codes: result.statusCodeStats,
      }),
    );
  },
);
instance.on('start', () => {
  started = performance.now();
});
instance.on('response', () => {
  replies += 1;
  if (replies === options.amount) finished = performance.now();
});
