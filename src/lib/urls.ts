// Absolute http(s) URLs, as the WHATWG URL Standard (the `URL` class) parses them: the one test
// behind the `url` format (C28), redirects and the thank-you URL (C29), and the pages' back link.

/** The URL when `text` is an absolute http or https URL with a host; otherwise undefined. */
export function httpUrl(text: string | null | undefined): URL | undefined {
  if (text === undefined || text === null || text === '') return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '' ? url : undefined;
}

/** C29: `target` as an absolute http(s) URL whose origin is one of `origins`; otherwise undefined. */
export function allowedRedirect(
  target: string | null | undefined,
  origins: readonly string[],
): string | undefined {
  const url = httpUrl(target);
  return url !== undefined && origins.includes(url.origin) ? url.href : undefined;
}
