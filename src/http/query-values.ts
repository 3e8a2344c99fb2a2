// The values a query string holds, as both HTTP APIs read them (C24, C34): one set of checks and
// one set of sentences, so `since` or `limit` means the same thing on every route.
import * as v from 'valibot';
import { parseTime } from '../lib/time.ts';

/** One of `values`, named in the refusal. */
export const oneOf = <const T extends readonly string[]>(values: T) =>
  v.picklist(values, `must be one of: ${values.join(', ')}`);

/** The schema, with its description in the OpenAPI document. */
export const described = <S extends v.GenericSchema>(schema: S, text: string) =>
  v.pipe(schema, v.description(text));

/** A strict object's refusal of a member it does not know: which ones it does. */
export const known = (names: readonly string[]) => () => `is not known: use ${names.join(', ')}`;

const TIME = 'must be an ISO 8601 time, e.g. 2026-11-22T09:00:00Z';
/** A point in time that exists (2026-02-31 does not, C24), as an ISO string in UTC. */
export const time = v.pipe(
  v.string(TIME),
  v.transform((text) => parseTime(text)),
  v.check((t) => t !== undefined, TIME),
  v.transform((t) => t as string),
);

/** `true` or `false`, as a boolean. */
export const flag = v.pipe(
  oneOf(['true', 'false'] as const),
  v.transform((t) => t === 'true'),
);

/** The sentence that refuses a count outside its bounds. */
export const wholeMessage = (min: number, max: number) => `must be a whole number from ${min} to ${max}`;

/** A whole number written in decimal digits, from `min` to `max`. */
export function whole(min: number, max: number) {
  const message = wholeMessage(min, max);
  return v.pipe(
    v.string(message),
    v.regex(/^\d+$/, message),
    v.transform(Number),
    v.minValue(min, message),
    v.maxValue(max, message),
  );
}
