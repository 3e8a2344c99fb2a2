// C17: ids are UUIDv7, unique and time-ordered.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { uuidv7 } from '../src/lib/ids.ts';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const msOf = (id: string) => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);

describe('C17: uuidv7', () => {
  it('C17: has version 7, variant 10, and the current Unix time in milliseconds', () => {
    const before = Date.now();
    const id = uuidv7();
    expect(id).toMatch(UUID_V7);
    expect(msOf(id)).toBeGreaterThanOrEqual(before);
    expect(msOf(id)).toBeLessThanOrEqual(Date.now() + 1);
  });

  it('C17: 20,000 ids in one frozen millisecond are strictly increasing', () => {
    const now = Date.now() + 10_000;
    const ids = Array.from({ length: 20_000 }, () => uuidv7(now));
    for (let i = 1; i < ids.length; i++) expect((ids[i - 1] ?? '') < (ids[i] ?? '')).toBe(true);
    for (const id of ids.slice(0, 50)) expect(id).toMatch(UUID_V7);
  });

  it('C17: stay strictly increasing whatever the clock does (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 2 ** 47 }), { minLength: 1, maxLength: 200 }),
        (clock) => {
          const ids = clock.map((ms) => uuidv7(ms));
          for (let i = 1; i < ids.length; i++) expect((ids[i - 1] ?? '') < (ids[i] ?? '')).toBe(true);
          for (const id of ids) expect(id).toMatch(UUID_V7);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
