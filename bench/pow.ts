// `npm run bench:pow` (C39): what the private proof of work costs, at today's difficulty (a counter
// from 1,000 to MAX_COUNTER, src/accept/proof-of-work.ts). The same challenges, issued as the worker
// issues them, solved as the widget solves them (altcha-lib's solveChallenge, one WebCrypto SHA-256
// a try) in Node and in Debian's Chromium, on this machine's cores; and what a bot pays for one
// with a native SHA-256 loop on one core. A mid-range phone is not measured here: its figure is the
// desktop's times PHONE_RATIO, a stated estimate (docs/spam.md says why).
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { MAX_COUNTER, newChallenge } from '../src/accept/proof-of-work.ts';
import { median } from './harness.ts';

const CHALLENGES = Number(process.env.BENCH_POW_CHALLENGES ?? 20);
/** A mid-range phone's single core against this desktop's, for WebCrypto's digest loop: an estimate. */
const PHONE_RATIO = 4;
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const SECRET = randomBytes(32).toString('base64url');

const challenges = await Promise.all(
  Array.from({ length: CHALLENGES }, (_, i) => newChallenge(SECRET, `p${i}`, Date.now())),
);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const figures = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const p90 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))] ?? 0;
  return `median ${seconds(median(times))}, 90th percentile ${seconds(p90)}, worst ${seconds(sorted.at(-1) ?? 0)}`;
};

// 1. Node, as a desktop browser's engine (V8, WebCrypto).
const node: number[] = [];
for (const challenge of challenges) {
  const start = performance.now();
  const solution = await solveChallenge({ challenge, deriveKey });
  if (solution === null) throw new Error('not solved');
  node.push(performance.now() - start);
}
console.log(`proof of work, ${CHALLENGES} challenges, counter 1,000 to ${MAX_COUNTER.toLocaleString('en')}:`);
console.log(`  Node (V8, WebCrypto), one core: ${figures(node)}`);

// 2. Chromium: the widget's own solver, bundled, on a page of this machine (a secure context).
if (CHROMIUM === undefined) console.log('  Chromium: not installed (apt-get install chromium)');
else {
  const bundle = await build({
    stdin: {
      contents:
        "import { solveChallenge } from 'altcha-lib'; import { deriveKey } from 'altcha-lib/algorithms/web/sha';" +
        'globalThis.solve = async (c) => { const t = performance.now(); await solveChallenge({ challenge: c, deriveKey }); return performance.now() - t; };',
      resolveDir: join(import.meta.dirname, '..'),
    },
    bundle: true,
    format: 'iife',
    write: false,
    target: 'es2022',
  });
  const script = bundle.outputFiles[0]?.text ?? '';
  const server = createServer((_, res) =>
    res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<script>${script}</script>`),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    const desktop: number[] = [];
    for (const challenge of challenges)
      desktop.push(
        await page.evaluate(
          (c) => (globalThis as unknown as { solve: (c: unknown) => Promise<number> }).solve(c),
          challenge,
        ),
      );
    console.log(`  Chromium (the widget's solver), one core: ${figures(desktop)}`);
    console.log(
      `  a mid-range phone, estimated at ${PHONE_RATIO}x the desktop: ${figures(desktop.map((t) => t * PHONE_RATIO))}`,
    );
  } finally {
    await browser.close();
    server.close();
  }
}

// 3. A bot: SHA-256 of the same input size, in a loop, on one core: Node's, and OpenSSL's own
// (what a bot written for it would reach), when openssl is installed.
const input = Buffer.alloc(36);
const tries = 2_000_000;
const start = performance.now();
for (let i = 0; i < tries; i++) {
  input.writeUInt32BE(i, 32);
  createHash('sha256').update(input).digest();
}
const perHashMs = (performance.now() - start) / tries;
const meanCounter = (1_000 + MAX_COUNTER) / 2;
console.log(
  `  a bot, Node's SHA-256 on one core: ${(1 / perHashMs / 1000).toFixed(2)} million hashes a second; a challenge (${meanCounter.toLocaleString('en')} tries on average) ${(meanCounter * perHashMs).toFixed(1)} ms; 10,000 posts ${seconds(10_000 * meanCounter * perHashMs)} of one core`,
);
const openssl = spawnSync('openssl', ['speed', '-seconds', '2', '-bytes', '64', 'sha256'], {
  encoding: 'utf8',
});
const rate = /sha256\s+([\d.]+)k/.exec(openssl.stdout ?? '')?.[1];
if (rate !== undefined) {
  const perSecond = (Number(rate) * 1000) / 64;
  console.log(
    `  a bot, OpenSSL's SHA-256 on one core: ${(perSecond / 1e6).toFixed(1)} million hashes a second; a challenge ${((meanCounter / perSecond) * 1000).toFixed(1)} ms; 10,000 posts ${seconds((10_000 * meanCounter * 1000) / perSecond)} of one core`,
  );
} else console.log('  a bot, OpenSSL: openssl is not installed');
