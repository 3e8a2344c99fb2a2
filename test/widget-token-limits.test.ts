// C39, C21: the widget's token for many people behind one address (an office, a school, a mobile
// carrier): its own limiter, sized for 50 people opening a form at once, apart from analytics'
// events, so that a page's beacons never cost a person their token.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { fetchWorkerWith, seedProject } from './helpers.ts';

const OFFICE = '203.0.113.50';

const token = (key: string, environment: Env, address = OFFICE) =>
  fetchWorkerWith(
    environment,
    new Request('https://forms.test/api/v1/widget-token', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', 'CF-Connecting-IP': address },
      body: JSON.stringify({ key }),
    }),
  );

const event = (key: string, environment: Env) =>
  fetchWorkerWith(
    environment,
    new Request('https://forms.test/api/v1/events', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', 'CF-Connecting-IP': OFFICE },
      body: JSON.stringify({ key, type: 'view' }),
    }),
  );

describe("C39: the widget's token behind one address", () => {
  it('50 people opening the form at once each get a token, and each renews it', async () => {
    const p = await seedProject();
    const first = await Promise.all(Array.from({ length: 50 }, () => token(p.apiKey, env)));
    expect(first.map((r) => r.status)).toEqual(Array(50).fill(200));
    const again = await Promise.all(Array.from({ length: 50 }, () => token(p.apiKey, env)));
    expect(again.map((r) => r.status)).toEqual(Array(50).fill(200));
  });

  it('has a limit of its own: the events the same address spent leave the tokens untouched, and the reverse', async () => {
    const p = await seedProject();
    // Analytics' budget, tight, spent by the page's beacons: events are refused...
    const tight = { ...env, EVENT_RATE_LIMIT: env.TIGHT_EVENT_RATE_LIMIT } as Env;
    const events = [];
    for (let i = 0; i < 6; i++) events.push((await event(p.apiKey, tight)).status);
    expect(events.filter((s) => s === 429).length).toBeGreaterThan(0);
    // ...the tokens are not.
    const tokens = await Promise.all(Array.from({ length: 20 }, () => token(p.apiKey, tight)));
    expect(tokens.map((r) => r.status)).toEqual(Array(20).fill(200));
    // A limiter of its own, so a flood of token requests from one address is still bounded.
    const flood = { ...env, TOKEN_RATE_LIMIT: env.TIGHT_EVENT_RATE_LIMIT } as Env;
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await token(p.apiKey, flood, '203.0.113.51')).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    // Elsewhere, events still count.
    expect((await event(p.apiKey, env)).status).toBe(204);
  });
});
