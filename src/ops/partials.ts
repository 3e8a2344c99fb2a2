// C46: partial submissions of a project's hosted page in steps, as the management API and the tool
// change them: on or off, and how many days a draft is kept. Off by default; `{"enabled": false}`
// turns them off (the drafts kept are erased by the cron as their days end, or by erasure).
import { InvalidInput } from '../lib/faults.ts';
import type { ProjectSettings } from '../store/projects.ts';

/** What a change may give; `keepDays` absent keeps the days (30 when first turned on). */
export type PartialsInput = { enabled?: boolean | undefined; keepDays?: number | undefined };

/** As a project's view shows them. */
export type PartialsView = { enabled: boolean; keepDays: number };

export const DEFAULT_KEEP_DAYS = 30;
export const MAX_KEEP_DAYS = 90;
const invalid = (message: string) => new InvalidInput(message);

/** C46: the column of the partials given, checked: their days while on, NULL when off. */
export function parsePartials(
  input: PartialsInput,
  current: { partialsKeepDays: number | null },
): ProjectSettings {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalid('partials is an object: {"enabled": true, "keepDays"?: 1–90}');
  }
  const { enabled, keepDays, ...extra } = input;
  const unknown = Object.keys(extra)[0];
  if (unknown !== undefined) throw invalid(`Unknown member '${unknown}' of partials: use enabled, keepDays`);
  if (enabled !== undefined && typeof enabled !== 'boolean')
    throw invalid('partials.enabled is true or false');
  if (
    keepDays !== undefined &&
    (!Number.isSafeInteger(keepDays) || keepDays < 1 || keepDays > MAX_KEEP_DAYS)
  ) {
    throw invalid(
      `partials.keepDays is a whole number of days from 1 to ${MAX_KEEP_DAYS}: not ${String(keepDays)}`,
    );
  }
  const on = enabled ?? current.partialsKeepDays !== null;
  if (!on) {
    if (keepDays !== undefined)
      throw invalid('partials.keepDays is for partials that are on: give "enabled": true');
    return { partialsKeepDays: null };
  }
  return { partialsKeepDays: keepDays ?? current.partialsKeepDays ?? DEFAULT_KEEP_DAYS };
}

export const partialsView = (p: { partialsKeepDays: number | null }): PartialsView => ({
  enabled: p.partialsKeepDays !== null,
  keepDays: p.partialsKeepDays ?? DEFAULT_KEEP_DAYS,
});
