// In the worker's bundle only (wrangler.toml `[alias]`): hono-openapi's schema converters, which
// generate the OpenAPI document. The document is generated at build time (src/document.ts) and
// served as a static asset; the worker itself only validates and describes, and never converts.
const never = (): never => {
  throw new Error(
    'the OpenAPI document is generated at build time (npm run build:assets), not in the worker',
  );
};

export const loadVendor = never;
export const toJsonSchema = never;
export const toOpenAPISchema = never;
