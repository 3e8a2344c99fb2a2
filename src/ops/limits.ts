// C45: a form's limits, as the management API and the tool change them: the most accepted
// submissions it takes, when it opens and closes, and what its hosted page says outside them. Each
// member given replaces that member; `null` clears it.
import { parseTextMap, storedTextMap, type TextMap, textMapColumn } from '../fields/display.ts';
import { InvalidInput } from '../lib/faults.ts';
import type { ProjectSettings } from '../store/projects.ts';

/** What a change may give; each member absent stays as it is. */
export type LimitsInput = {
  maxSubmissions?: number | null | undefined;
  opensAt?: string | null | undefined;
  closesAt?: string | null | undefined;
  closedText?: Record<string, unknown> | null | undefined;
};

/** The limits as a project's view shows them. */
export type LimitsView = {
  maxSubmissions: number | null;
  opensAt: string | null;
  closesAt: string | null;
  closedText: TextMap;
};

/** The most a form may be set to take: beyond any form's, within SQLite's integers. */
export const MAX_SUBMISSIONS = 10_000_000;
const invalid = (message: string) => new InvalidInput(message);

/** An ISO time, as `Date` reads it, kept as `toISOString` writes it (UTC, milliseconds). */
function isoTime(value: unknown, what: string): string {
  const at = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (!/^\d{4}-\d{2}-\d{2}T/.test(String(value)) || !Number.isFinite(at)) {
    throw invalid(`${what} is an ISO time with its zone, e.g. 2026-12-24T18:00:00Z: not '${String(value)}'`);
  }
  return new Date(at).toISOString();
}

/** C45: the columns of the limits given, each checked; the times in order with those kept. */
export function parseLimits(
  input: LimitsInput,
  current: { opensAt: string | null; closesAt: string | null },
): ProjectSettings {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalid('limits is an object: {"maxSubmissions"?, "opensAt"?, "closesAt"?, "closedText"?}');
  }
  const out: ProjectSettings = {};
  const { maxSubmissions, opensAt, closesAt, closedText, ...extra } = input;
  const unknown = Object.keys(extra)[0];
  if (unknown !== undefined) {
    throw invalid(`Unknown member '${unknown}' of limits: use maxSubmissions, opensAt, closesAt, closedText`);
  }
  if (maxSubmissions !== undefined) {
    if (
      maxSubmissions !== null &&
      (!Number.isSafeInteger(maxSubmissions) || maxSubmissions < 1 || maxSubmissions > MAX_SUBMISSIONS)
    ) {
      throw invalid(
        `maxSubmissions is a whole number from 1 to ${MAX_SUBMISSIONS}, or null: not ${String(maxSubmissions)}`,
      );
    }
    out.maxSubmissions = maxSubmissions;
  }
  if (opensAt !== undefined) out.opensAt = opensAt === null ? null : isoTime(opensAt, 'opensAt');
  if (closesAt !== undefined) out.closesAt = closesAt === null ? null : isoTime(closesAt, 'closesAt');
  const opens = out.opensAt === undefined ? current.opensAt : out.opensAt;
  const closes = out.closesAt === undefined ? current.closesAt : out.closesAt;
  if (opens !== null && closes !== null && Date.parse(opens) >= Date.parse(closes)) {
    throw invalid(`The form would close (${closes}) before it opens (${opens})`);
  }
  if (closedText !== undefined) {
    out.closedText = textMapColumn(parseTextMap(closedText, { what: 'closed text', max: 1000, lines: true }));
  }
  return out;
}

export const limitsView = (p: {
  maxSubmissions: number | null;
  opensAt: string | null;
  closesAt: string | null;
  closedText: string | null;
}): LimitsView => ({
  maxSubmissions: p.maxSubmissions,
  opensAt: p.opensAt,
  closesAt: p.closesAt,
  closedText: storedTextMap(p.closedText),
});
