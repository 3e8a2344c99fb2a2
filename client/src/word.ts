// One code's sentence from a language's catalogue as served (code → template): the template that
// words it (choose.ts), filled (fill.ts); undefined where the worker's English text says it better.
// Shared by the widget, which fetched the catalogue, and the worker's hosted page, which reads it
// from its assets (C43, C44), so that both word a failure alike.
import { lacksParameter, templateOf } from './choose.ts';
import { fill } from './fill.ts';

/** The catalogue's sentence for a code, or undefined when it has none, or lacks a parameter it needs. */
export function word(
  templates: Record<string, unknown> | undefined,
  code: string | undefined,
  params: Record<string, unknown> | undefined,
  locale: string,
  label?: string,
): string | undefined {
  if (templates == null || code === undefined) return undefined;
  const template = templateOf(templates, code);
  // C43: an issue without a parameter its sentence needs is better said by the worker's text.
  if (template === undefined || lacksParameter(template, params)) return undefined;
  return fill(template, params, locale, label);
}
