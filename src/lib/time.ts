// Dates and times as RFC 3339 writes them, checked to exist: `2026-02-30` is no day, and a parser
// that rolls it over to 2 March would answer for a day nobody asked about.

/** The year, month and day, when `text` is a full-date (YYYY-MM-DD) of a day that exists. */
export function isDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d); // unlike Date.UTC, years 0–99 stay themselves
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** RFC 3339 date-time: a full date, `T` (or `t`), a time with seconds, and `Z` or an offset. */
export function isDateTime(text: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/.exec(text);
  if (m === null || !isDate(m[1] ?? '')) return false;
  const [h, mi, s] = [Number(m[2]), Number(m[3]), Number(m[4])];
  const offsetOk = m[7] === undefined || (Number(m[7]) < 24 && Number(m[8]) < 60);
  // 60 seconds: RFC 3339 allows a leap second.
  return h < 24 && mi < 60 && s <= 60 && offsetOk;
}

/**
 * A point in time given as a day (`2026-11-22`, its start in UTC) or a date-time with its offset
 * (seconds and fraction optional), as an ISO string in UTC; undefined when it is not one, or names a
 * day or an hour that does not exist.
 */
export function parseTime(text: string): string | undefined {
  if (isDate(text)) return new Date(`${text}T00:00:00Z`).toISOString();
  const m = /^(\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2})(:\d{2}(?:\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})$/.exec(text);
  if (m === null) return undefined;
  const full = `${m[1]}${m[2] ?? ':00'}${m[3]}`;
  // A leap second is a time RFC 3339 allows but no clock of ours shows: not a bound to select by.
  if (!isDateTime(full) || /:60(?:\.\d+)?(?:[Zz]|[+-])/.test(full)) return undefined;
  const ms = Date.parse(full);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}
