// C45: a hidden field that captures where a visitor came from: a campaign's `utm_*` parameter, the
// page that linked to the form (`referrer`), or any parameter of the form page's address
// (`query:<name>`). The widget and the hosted page fill it; a person never sees it; the worker
// judges it as any string field, at most CAPTURE_MAX characters.
import { InvalidInput } from '../lib/faults.ts';
import type { FieldRules, FieldType } from './catalogue.ts';

export const CAPTURE_SOURCES = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'referrer',
] as const;
/** The longest value a captured field holds (a long address is cut by the page that fills it). */
export const CAPTURE_MAX = 500;
const QUERY = /^query:[A-Za-z0-9_.~-]{1,100}$/;

const invalid = (message: string) => new InvalidInput(message);

/**
 * C45: `capture` as given: one of CAPTURE_SOURCES or `query:<name>`, on a string field that is not
 * a list of choices; `null` or absent: none. Its rules get `maxLength` CAPTURE_MAX unless they say
 * less; more is refused.
 */
export function parseCapture(
  field: string,
  value: unknown,
  of: { type: FieldType; required?: boolean; rules?: FieldRules | undefined },
): { capture: string; rules: FieldRules } | undefined {
  if (value === undefined || value === null) return undefined;
  if (
    typeof value !== 'string' ||
    !((CAPTURE_SOURCES as readonly string[]).includes(value) || QUERY.test(value))
  ) {
    throw invalid(
      `'capture' of field '${field}' is ${CAPTURE_SOURCES.join(', ')} or query:<name>: not ${JSON.stringify(value)}`,
    );
  }
  if (of.type !== 'string' || of.rules?.oneOf !== undefined) {
    throw invalid(`'capture' is for a text field: '${field}' is not one`);
  }
  // A visitor who came without the value could never send the form.
  if (of.required === true) throw invalid(`A captured field is never required: '${field}' is`);
  const max = of.rules?.maxLength;
  if (max !== undefined && max > CAPTURE_MAX) {
    throw invalid(
      `A captured field holds at most ${CAPTURE_MAX} characters: '${field}' has maxLength ${max}`,
    );
  }
  return { capture: value, rules: { ...of.rules, maxLength: max ?? CAPTURE_MAX } };
}
