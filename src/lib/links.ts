// C35: a value that a stranger typed never becomes a link in a stranger's mailbox. Mail clients turn
// URLs, bare domains (`evil.example`, `www.evil.example`), addresses and IP addresses into links;
// each is shown "defanged" instead, as security teams write them (`https[:]//evil[.]example`), which
// a person can still read and no client links.

/** Every character that URL parsers (IDNA) take as a label separator. */
const DOT = '[.\\u3002\\uFF0E\\uFF61]';
/** A dot between two characters that are not spaces (nor dots): one that may join a host's labels. */
const HOST_DOT = new RegExp(`(?<=[^\\s.\\u3002\\uFF0E\\uFF61])${DOT}(?=[^\\s.\\u3002\\uFF0E\\uFF61])`, 'gu');
const DIGIT = /\p{N}/u;
/** What may stand before a plain number: nothing, a space, an opening mark, a currency or a sign. */
const NUMBER_LEAD = /^$|[\s([{"'“‘«$€£¥+\-–~≈=<>#*]/u;
/** What may stand after one: nothing, a space, a closing mark, a percent sign or a full stop's kin. */
const NUMBER_TRAIL = /^$|[\s)\]}"'”’»%,;:!?]/u;

/**
 * Whether the dot at `at` sits in a plain number (`3.14`, `-1.5 kg`, `(2.5%)`): digits alone on
 * both sides, standing among spaces and ordinary punctuation. Anything else, an IPv4 address or a
 * part of one among them, may be a host: its dot is defanged.
 */
function inNumber(text: string, at: number): boolean {
  let start = at;
  while (start > 0 && DIGIT.test(text[start - 1] ?? '')) start--;
  let end = at + 1;
  while (end < text.length && DIGIT.test(text[end] ?? '')) end++;
  return (
    start < at &&
    end > at + 1 &&
    NUMBER_LEAD.test(text[start - 1] ?? '') &&
    NUMBER_TRAIL.test(text[end] ?? '') &&
    // Right after a URL's slashes (`//$0.0`), a number-like host is still a host.
    !/[/\\]/.test(text.slice(Math.max(0, start - 2), start))
  );
}

/** `scheme://`, and the schemes that mail clients link without slashes. */
const SCHEME = /([\p{L}][\p{L}\p{N}+.-]*):(\/\/|\\\\)|\b(mailto|tel|sms|callto|skype|data|javascript):/giu;

/** The text with every URL, domain, address and IP address made unlinkable. */
export function defangLinks(text: string): string {
  return text
    .replace(
      SCHEME,
      (_, scheme: string | undefined, slashes: string | undefined, bare: string | undefined) =>
        bare !== undefined ? `${bare}[:]` : `${scheme}[:]${slashes}`,
    )
    .replace(HOST_DOT, (dot, at: number, whole: string) => (inNumber(whole, at) ? dot : '[.]'));
}

/** At most `max` code points of the text, and `…` where it was cut. */
export function cutShort(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, max).join('')}…`;
}
