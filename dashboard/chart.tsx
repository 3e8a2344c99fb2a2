// Pictures of the numbers per day (uPlot): a sparkline for a project's card, a chart for Stats.
// Both are pictures only (aria-hidden): the same numbers are in text or a table beside them.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Day } from './server-types.ts';
import { type Accepted, everyDay, sparkRange } from './spark.ts';

export type { Day };

const seconds = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;
const css = (name: string) =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';

function usePlot(make: (el: HTMLElement) => uPlot, deps: unknown[]) {
  const el = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (el.current === null) return;
    const plot = make(el.current);
    const resize = new ResizeObserver(() => {
      if (el.current) plot.setSize({ width: el.current.clientWidth, height: plot.height });
    });
    resize.observe(el.current);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, deps);
  return el;
}

/** Accepted submissions on each of the last `count` days (a quiet one 0), as a line without axes. */
export function Sparkline({ days, count }: { days: Accepted[]; count: number }) {
  const el = usePlot(
    (target) => {
      const line = everyDay(days, count, new Date());
      return new uPlot(
        {
          width: Math.max(target.clientWidth, 120),
          height: 36,
          legend: { show: false },
          cursor: { show: false },
          axes: [{ show: false }, { show: false }],
          // From a little below zero: a month of quiet days is a visible line along the card, not
          // one lost on the canvas's edge beside a single busy day.
          scales: { x: { time: true }, y: { range: (_u, _min, max) => sparkRange(max) } },
          series: [{}, { stroke: css('--accent'), fill: css('--accent-soft'), width: 1.5 }],
        },
        [line.map((d) => seconds(d.day)), line.map((d) => d.accepted)],
        target,
      );
    },
    [days, count],
  );
  return <div class="spark" ref={el} aria-hidden="true" />;
}

/** The series per day: C40's views and starts, and what became of submissions. */
export function DaysChart({ days }: { days: Day[] }) {
  const el = usePlot(
    (target) =>
      new uPlot(
        {
          width: Math.max(target.clientWidth, 280),
          height: 260,
          scales: { x: { time: true } },
          axes: [
            { stroke: css('--text'), grid: { stroke: css('--line') } },
            { stroke: css('--text'), grid: { stroke: css('--line') } },
          ],
          series: [
            {},
            { label: 'Views', stroke: css('--text'), width: 1, dash: [2, 3] },
            { label: 'Starts', stroke: css('--warn'), width: 2 },
            { label: 'Accepted', stroke: css('--accent'), width: 2 },
            { label: 'Spam', stroke: css('--muted'), width: 2, dash: [4, 4] },
            { label: 'Delivered', stroke: css('--ok'), width: 2 },
            { label: 'Failed', stroke: css('--bad'), width: 2 },
          ],
        },
        [
          days.map((d) => seconds(d.day)),
          days.map((d) => d.views),
          days.map((d) => d.starts),
          days.map((d) => d.accepted),
          days.map((d) => d.spam),
          days.map((d) => d.delivered),
          days.map((d) => d.failed),
        ],
        target,
      ),
    [days],
  );
  return <div class="chart" ref={el} aria-hidden="true" />;
}
