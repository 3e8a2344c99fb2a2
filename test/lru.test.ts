// The bounded cache behind the configuration cache.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Lru } from '../src/lib/lru.ts';

describe('Lru', () => {
  it('past its bound, drops the least recently used entry; a hit counts as a use', () => {
    const lru = new Lru<string, number>(2, 1000);
    lru.set('a', 1, 0);
    lru.set('b', 2, 0);
    expect(lru.get('a', 1)).toBe(1); // b is now the least recently used
    lru.set('c', 3, 2);
    expect([lru.get('a', 3), lru.get('b', 3), lru.get('c', 3)]).toEqual([1, undefined, 3]);
    expect(lru.size).toBe(2);
  });

  it('an entry lives for the time to live, then misses and is dropped', () => {
    const lru = new Lru<string, number>(10, 100);
    lru.set('a', 1, 0);
    expect(lru.get('a', 99)).toBe(1);
    expect(lru.get('a', 100)).toBeUndefined();
    expect(lru.size).toBe(0);
  });

  it('setting a key again replaces its value and renews its time', () => {
    const lru = new Lru<string, number>(10, 100);
    lru.set('a', 1, 0);
    lru.set('a', 2, 50);
    expect(lru.get('a', 120)).toBe(2);
    expect(lru.size).toBe(1);
  });

  it('(property) behaves as a list in use order, cut at the bound, with expiry', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('set' as const),
        key: fc.integer({ min: 0, max: 9 }),
        value: fc.integer(),
      }),
      fc.record({ kind: fc.constant('get' as const), key: fc.integer({ min: 0, max: 9 }) }),
      fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 40 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(op, { maxLength: 60 }), (max, ops) => {
        const ttl = 50;
        const lru = new Lru<number, number>(max, ttl);
        // The model: [key, value, expires], least recently used first.
        let model: [number, number, number][] = [];
        let now = 0;
        for (const o of ops) {
          if (o.kind === 'tick') now += o.ms;
          else if (o.kind === 'set') {
            lru.set(o.key, o.value, now);
            model = model.filter(([k]) => k !== o.key);
            model.push([o.key, o.value, now + ttl]);
            if (model.length > max) model.shift();
          } else {
            const found = model.find(([k]) => k === o.key);
            model = model.filter(([k]) => k !== o.key);
            const live = found !== undefined && found[2] > now;
            if (live) model.push(found);
            expect(lru.get(o.key, now)).toBe(live ? found[1] : undefined);
          }
          expect(lru.size).toBe(model.length);
          expect(lru.size).toBeLessThanOrEqual(max);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
