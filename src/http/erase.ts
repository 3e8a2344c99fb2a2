// C25: the body of an erasure, the same for the key-scoped submissions API and the management API:
// a field and the value whose submissions are erased.
import * as v from 'valibot';

export const EraseBody = v.strictObject({
  field: v.pipe(v.string(), v.minLength(1)),
  value: v.union([v.string(), v.pipe(v.number(), v.finite()), v.boolean(), v.null()]),
});
