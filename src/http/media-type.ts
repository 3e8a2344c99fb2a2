// C9: application/json or application/<anything>+json, any parameters, any case.
const JSON_MEDIA_TYPE = /^application\/(?:[!#$%&'*+.^_`|~0-9a-z-]+\+)?json[ \t]*(?:;|$)/i;

/** Whether a Content-Type header names JSON (C9). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return JSON_MEDIA_TYPE.test(contentType ?? '');
}
