// C28: the pattern engine (RE2, as re2js) is a third of the worker's code and needed only by
// projects with a `pattern` rule, so it is loaded on the first such project, not at start-up.
import type { RE2JS } from 're2js';
import type { FieldRules } from './catalogue.ts';

export type { RE2JS };
export type PatternEngine = typeof RE2JS;

let loading: Promise<PatternEngine> | undefined;

/** The engine, loaded once per isolate on first use. */
export function patternEngine(): Promise<PatternEngine> {
  loading ??= import('re2js').then((m) => m.RE2JS);
  return loading;
}

/** The engine when one of these fields has a pattern; otherwise nothing is loaded. */
export async function engineFor(
  fields: readonly { rules?: FieldRules }[],
): Promise<PatternEngine | undefined> {
  return fields.some((f) => f.rules?.pattern !== undefined) ? patternEngine() : undefined;
}
