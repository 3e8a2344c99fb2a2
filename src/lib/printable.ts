// C19: what the tool prints never carries a control character from outside (a receiver's answer, a
// submitted value, a file name, a URL): an escape sequence in it could retitle, recolour or rewrite
// the operator's terminal, and a line break could forge a line of output. Such characters are shown
// as escapes instead, visibly (`\x1b`, `\n`, `\u202e`).

// the control characters (U+0000–U+001F, DEL, U+0080–U+009F), the Unicode line and paragraph separators, and the bidirectional
// overrides and isolates (which reorder what a terminal shows).
const CONTROLS = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escaped(ch: string): string {
  const named = NAMED[ch];
  if (named !== undefined) return named;
  const code = ch.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One value from outside, as one line of text: every control character escaped, line breaks too. */
export function shown(text: string): string {
  return text.replace(CONTROLS, escaped);
}

/** A whole text output: every control character escaped but the line breaks the tool wrote. */
export function safeText(text: string): string {
  return text.replace(CONTROLS, (ch) => (ch === '\n' ? ch : escaped(ch)));
}

/** A CSV cell: its line breaks and tabs kept (CSV quotes them), every other control escaped. */
export function safeCell(text: string): string {
  return text.replace(CONTROLS, (ch) => (ch === '\n' || ch === '\r' || ch === '\t' ? ch : escaped(ch)));
}

// JSON.stringify escapes U+0000–U+001F already; these it leaves raw.
const JSON_RAW = /[\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** JSON text with every character a terminal could act on written as a `\u` escape (the same JSON). */
export function safeJson(json: string): string {
  return json.replace(JSON_RAW, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
