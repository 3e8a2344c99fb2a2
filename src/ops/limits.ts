// C45: a form's limits, as the management API and the tool change them: the most accepted
// submissions it takes, when it opens and closes, and what its hosted page says outside them. Each
// member given replaces that member; `null` clears it.
import { parseTextMap, storedTextMap, type TextMap, textMapColumn } from '../fields/display.ts';
import { InvalidInput } from '../lib/faults.ts';
import { parseTime } from '../lib/time.ts';
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

/** C45: how a closed text is checked, as C44's texts are: 1,000 characters, with line breaks. */
export const CLOSED_TEXT_RULE = { what: 'closed text', max: 1000, lines: true };

/** The most a form may be set to take: beyond any form's, within SQLite's integers. */
export const MAX_SUBMISSIONS = 10_000_000;
const invalid = (message: string) => new InvalidInput(message);

/**
 * A date-time with its zone, read as the read API reads `since` (lib/time.ts: a day that exists, an
 * offset), but never a day alone, kept as `toISOString` writes it (UTC, milliseconds).
 */
function isoTime(value: unknown, what: string): string {
  const at = typeof value === 'string' && /[Tt]/.test(value) ? parseTime(value) : undefined;
  if (at === undefined) {
    throw invalid(`${what} is an ISO time with its zone, e.g. 2026-12-24T18:00:00Z: not '${String(value)}'`);
  }
  return at;
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
    out.closedText = textMapColumn(parseTextMap(closedText, CLOSED_TEXT_RULE));
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
