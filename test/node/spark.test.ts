// C33: a project card's sparkline draws every one of its last 30 days: the stats list only the days
// with activity, and a lone point (one busy day, or none) is no line at all.
import { describe, expect, it } from 'vitest';
import { everyDay, sparkRange } from '../../dashboard/spark.ts';

describe('the projects’ sparkline', () => {
  it('fills the days the stats leave out with 0, oldest first, ending today (UTC)', () => {
    const today = new Date('2026-03-01T23:30:00Z');
    expect(everyDay([{ day: '2026-02-28', accepted: 5 }], 3, today)).toEqual([
      { day: '2026-02-27', accepted: 0 },
      { day: '2026-02-28', accepted: 5 },
      { day: '2026-03-01', accepted: 0 },
    ]);
    const month = everyDay([], 30, today);
    expect(month).toHaveLength(30);
    expect(month[0]?.day).toBe('2026-01-31');
    expect(month.every((d) => d.accepted === 0)).toBe(true);
  });

  it('leaves out days outside the window, and keeps a day once', () => {
    const today = new Date('2026-11-28T00:00:00Z');
    const line = everyDay(
      [
        { day: '2026-10-01', accepted: 9 },
        { day: '2026-11-28', accepted: 2 },
      ],
      30,
      today,
    );
    expect(line.map((d) => d.accepted).reduce((a, b) => a + b, 0)).toBe(2);
    expect(new Set(line.map((d) => d.day)).size).toBe(30);
    expect(line.at(-1)).toEqual({ day: '2026-11-28', accepted: 2 });
  });

  it('ranges from a little below zero to a little above the busiest day (1 when all are quiet)', () => {
    expect(sparkRange(null)).toEqual([-0.12, 1.1]);
    expect(sparkRange(0)).toEqual([-0.12, 1.1]);
    const [low, high] = sparkRange(50);
    expect(low).toBeCloseTo(-6);
    expect(high).toBeCloseTo(55);
  });
});
