// The numbers a project card's sparkline draws (dashboard/chart.tsx), apart from uPlot so that they
// are tested alone. The stats list only the days with activity: the line needs every day.

/** Accepted submissions on one day (`YYYY-MM-DD`, UTC). */
export type Accepted = { day: string; accepted: number };

const DAY_MS = 86_400_000;

/**
 * The last `count` days up to `today` (UTC), oldest first, each with its accepted submissions (0
 * on a day the stats do not list), so that a quiet month is a flat line and one busy day a peak on
 * it, never a lone point uPlot cannot draw a line through.
 */
export function everyDay(days: readonly Accepted[], count: number, today: Date): Accepted[] {
  const accepted = new Map(days.map((d) => [d.day, d.accepted]));
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Array.from({ length: count }, (_, i) => {
    const day = new Date(end - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10);
    return { day, accepted: accepted.get(day) ?? 0 };
  });
}

/** The sparkline's vertical range: zero a little above the bottom, the busiest day below the top. */
export const sparkRange = (max: number | null): [number, number] => {
  const top = Math.max(1, max ?? 0);
  return [-0.12 * top, 1.1 * top];
};
