// C9: application/json or application/<anything>+json, any parameters, any case.
const JSON_MEDIA_TYPE = /^application\/(?:[!#$%&'*+.^_`|~0-9a-z-]+\+)?json[ \t]*(?:;|$)/i;

/** Whether a Content-Type header names JSON (C9). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return JSON_MEDIA_TYPE.test(contentType ?? '');
}

// C29: the two bodies an HTML form sends.
const URLENCODED = /^application\/x-www-form-urlencoded[ \t]*(?:;|$)/i;
const MULTIPART = /^multipart\/form-data[ \t]*;/i;

/** Which form body a Content-Type names, if any (multipart only with its boundary parameter). */
export function formMediaType(contentType: string | undefined): 'urlencoded' | 'multipart' | undefined {
  const text = contentType ?? '';
  if (URLENCODED.test(text)) return 'urlencoded';
  if (MULTIPART.test(text) && /;\s*boundary=/i.test(text)) return 'multipart';
  return undefined;
}
