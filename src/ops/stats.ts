// C34, C40: a project's numbers per day (accepted, spam, delivered, failed) with its form analytics
// (views, starts, their rates, where visitors gave up). The tool and the management API both call this.
import { InvalidInput } from '../lib/faults.ts';
import { analyticsSince } from '../store/analytics.ts';
import { type DayStats, dailyStats, MAX_STATS_DAYS } from '../store/stats.ts';
import { type Manager, projectIdOf } from './context.ts';

export { MAX_STATS_DAYS };

/** A day's numbers, with C40's form analytics: views, starts and the rates they give. */
export type DayReport = DayStats & {
  views: number;
  starts: number;
  /** accepted / starts, or null without a start. */
  completionRate: number | null;
  /** accepted / views, or null without a view. */
  conversionRate: number | null;
};

/**
 * C40: how many visitors left a started form at each field, in the form's order, and their time
 * there; C46: and the step of its hosted page the field is on, so that a page in steps (its drafts
 * too) is read as left at step N.
 */
export type FieldDropOff = { field: string; step: number; visitors: number; averageSeconds: number | null };

export type ProjectStats = {
  days: DayReport[];
  dropOff: FieldDropOff[];
  /** The median time from the first input to a submission, over the days (each day's median, weighted by its submissions). */
  medianSecondsToSubmit: number | null;
};

const rate = (part: number, whole: number) =>
  whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;
const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** The median of per-day medians, each weighing as many as the submissions it was taken over. */
function weightedMedian(days: readonly { medianSubmitMs: number | null; timed: number }[]): number | null {
  const timed = days
    .filter((d): d is { medianSubmitMs: number; timed: number } => d.medianSubmitMs !== null && d.timed > 0)
    .sort((a, b) => a.medianSubmitMs - b.medianSubmitMs);
  const total = timed.reduce((n, d) => n + d.timed, 0);
  let seen = 0;
  for (const d of timed) {
    seen += d.timed;
    if (seen * 2 >= total) return d.medianSubmitMs;
  }
  return null;
}

/**
 * The last `days` days (UTC, today included): accepted, spam, delivered and failed, and (C40) views,
 * starts and their rates, per day; where visitors gave up, and the median time to a submission.
 */
export async function submissionStats(m: Manager, projectId: string, days = 30): Promise<ProjectStats> {
  if (!Number.isInteger(days) || days < 1 || days > MAX_STATS_DAYS) {
    throw new InvalidInput(`days must be a whole number from 1 to ${MAX_STATS_DAYS}`);
  }
  const p = await projectIdOf(m, projectId);
  const from = new Date(Date.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const [daily, analytics] = await Promise.all([
    dailyStats(m.db, p, from, days),
    analyticsSince(m.db, p, from),
  ]);
  const byDay = new Map(analytics.days.map((d) => [d.day, d]));
  const report = daily.map((d): DayReport => {
    const a = byDay.get(d.day);
    const views = a?.views ?? 0;
    const starts = a?.starts ?? 0;
    return {
      ...d,
      views,
      starts,
      completionRate: rate(d.accepted, starts),
      conversionRate: rate(d.accepted, views),
    };
  });
  const left = new Map(analytics.dropOff.map((d) => [d.field, d]));
  const dropOff = analytics.fields.map(({ name: field, step }): FieldDropOff => {
    const d = left.get(field);
    return {
      field,
      step,
      visitors: d?.visitors ?? 0,
      averageSeconds: d === undefined || d.visitors === 0 ? null : seconds(d.totalMs / d.visitors),
    };
  });
  const median = weightedMedian(analytics.days);
  return { days: report, dropOff, medianSecondsToSubmit: median === null ? null : seconds(median) };
}
