// The reply schemas the routes share (valibot, read by routes at run time as well as by the OpenAPI
// document): a stored file's metadata and a 2xx envelope. Each route declares its own operation
// beside its handler (describeRoute), with the descriptions of openapi-responses.ts; src/document.ts
// generates the document from the app, with the schemas every operation shares
// (openapi-components.ts).
import * as v from 'valibot';
import { type ApiError, REASON_PHRASES } from './envelope.ts';

/** A reply of the catalogue a route may give, under the name its example is shown by. */
export type Documented = { name: string; reply: ApiError };

/** C30: what a `file` field's value is once stored: the file's metadata, its bytes in R2. */
export const FileMetadataSchema = v.object({
  name: v.string(),
  type: v.string(),
  size: v.pipe(v.number(), v.integer()),
  sha256: v.string(),
});

/** A 2xx envelope: `data` holds `message` and the route's results (C3, C24). */
export function okEnvelope<const E extends v.ObjectEntries>(code: 200 | 201, members: E) {
  return v.object({
    data: v.object({ message: v.string(), ...members }),
    status: v.object({ code: v.literal(code), message: v.literal(REASON_PHRASES[code]) }),
  });
}
