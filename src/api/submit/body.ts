// C5 steps 7–8 (C11): the body's bytes → a JSON object, and (C13) which of its numbers are not
// written as integers, judged on their source text: after parsing, `4503599627370496.5` and
// `1.0000000000000001` are already whole doubles, and would be stored changed.
import { notJson, notObject } from '../../http/replies.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** C13: an integer is written as JSON's `int` alone: an optional minus and digits, no fraction or exponent. */
const INTEGER_TEXT = /^-?(?:0|[1-9][0-9]*)$/;

export type ParsedBody = {
  body: Record<string, unknown>;
  /** Top-level fields whose value is a number not written as an integer (`3.0`, `1e3`, `2.5`). */
  notIntegerText: ReadonlySet<string>;
};

const NONE: ReadonlySet<string> = new Set();

type Holder = object;
type Reviver = (this: Holder, key: string, value: unknown, context?: { source?: string }) => unknown;

/** Strict UTF-8, then JSON, then an object. */
export function parseObject(bytes: Uint8Array): ParsedBody {
  // Pairs of (holder, key) for numbers whose text is not an integer: few, so cheap to keep.
  let marks: [Holder, string][] | undefined;
  const reviver: Reviver = function (key, value, context) {
    if (typeof value === 'number' && !INTEGER_TEXT.test(context?.source ?? '')) {
      marks ??= [];
      marks.push([this, key]);
    }
    return value;
  };
  let body: unknown;
  try {
    // Invalid UTF-8 is refused rather than silently replaced with U+FFFD.
    body = JSON.parse(utf8.decode(bytes), reviver as Parameters<typeof JSON.parse>[1]);
  } catch {
    throw notJson();
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw notObject();
  }
  const notIntegerText =
    marks === undefined ? NONE : new Set(marks.filter(([holder]) => holder === body).map(([, key]) => key));
  return { body: body as Record<string, unknown>, notIntegerText };
}
