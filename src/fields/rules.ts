// C28: rules beyond a field's type — format, length, range, choices, pattern — as checks, each
// with its message and its code (C43), in one fixed order. Patterns run on RE2 (re2js), whose matching time grows
// linearly with the input, so no pattern, however written, can take a Worker's CPU time (ReDoS).
// The engine is loaded only when a project with a pattern is (pattern.ts): a form post to any
// other project never evaluates it.
import { EMAIL_REGEX, UUID_REGEX } from 'valibot';
import type { IssueCode, Problem } from '../lib/codes.ts';
import { isDate, isDateTime } from '../lib/time.ts';
import { httpUrl } from '../lib/urls.ts';
import {
  type FieldRules,
  type FieldType,
  type Format,
  MAX_PATTERN_INPUT,
  MAX_PATTERN_LENGTH,
  RULES_OF,
} from './catalogue.ts';
import { accepts, sizeText, type UploadedFile } from './file.ts';
import type { PatternEngine, RE2JS } from './pattern.ts';

const FORMAT_TEXT: Record<Format, string> = {
  email: 'an email address',
  url: 'a URL (http or https)',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date and time (RFC 3339, e.g. 2026-11-23T09:00:00Z)',
  uuid: 'a UUID',
};

export const formatError = (name: string, format: Format) => `Field '${name}' must be ${FORMAT_TEXT[format]}`;
const characters = (n: number) => `${n} character${n === 1 ? '' : 's'}`;
export const minLengthError = (name: string, n: number) =>
  `Field '${name}' must be at least ${characters(n)}`;
export const maxLengthError = (name: string, n: number) => `Field '${name}' must be at most ${characters(n)}`;
export const minError = (name: string, n: number) => `Field '${name}' must be at least ${n}`;
export const maxError = (name: string, n: number) => `Field '${name}' must be at most ${n}`;
export const oneOfError = (name: string, values: readonly string[]) =>
  `Field '${name}' must be one of: ${values.join(', ')}`;
export const patternError = (name: string) => `Field '${name}' does not match the required pattern`;
export const maxSizeError = (name: string, n: number) => `Field '${name}' must be at most ${sizeText(n)}`;
export const acceptError = (name: string, types: readonly string[]) =>
  `Field '${name}' must be a file of type ${types.join(', ')}`;

/** C28: lengths count Unicode code points (what a person counts), not UTF-16 units. */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** An absolute http or https URL, as the WHATWG URL Standard (the `URL` class) parses it. */
const isHttpUrl = (text: string) => httpUrl(text) !== undefined;

const FORMAT_TEST: Record<Format, (text: string) => boolean> = {
  email: (text) => EMAIL_REGEX.test(text),
  url: isHttpUrl,
  date: isDate,
  'date-time': isDateTime,
  uuid: (text) => UUID_REGEX.test(text),
};

/** A pattern, compiled by RE2; throws a readable error when RE2 cannot take it. */
export function compilePattern(engine: PatternEngine, pattern: string): RE2JS {
  if (pattern === '' || pattern.length > MAX_PATTERN_LENGTH) {
    throw new Error(`a pattern is 1 to ${MAX_PATTERN_LENGTH} characters`);
  }
  try {
    return engine.compile(pattern);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`not a pattern RE2 can run (no lookaround or backreferences): ${reason}`);
  }
}

/** One rule of a field: whether a value (of the field's type) keeps it, and the problem if not. */
export type RuleCheck = { test: (value: unknown) => boolean; problem: Problem };

/**
 * The checks of a field's rules, in the fixed order of C28; each breaks with its own message and
 * code (C43). A `pattern` rule needs the engine (`patternEngine()`), loaded by whoever compiles the
 * project. Email and UUID are valibot's own expressions, which a generated validator embeds too.
 */
export function ruleChecks(
  name: string,
  type: FieldType,
  rules: FieldRules | undefined,
  engine?: PatternEngine,
): RuleCheck[] {
  if (rules === undefined) return [];
  const checks: RuleCheck[] = [];
  const add = <T>(
    test: (value: T) => boolean,
    code: IssueCode,
    message: string,
    params?: Record<string, unknown>,
  ) =>
    checks.push({
      test: test as (value: unknown) => boolean,
      problem: params === undefined ? { field: name, code, message } : { field: name, code, params, message },
    });
  for (const rule of RULES_OF[type]) {
    switch (rule) {
      case 'format': {
        const format = rules.format;
        if (format === undefined) break;
        add<string>(FORMAT_TEST[format], 'format', formatError(name, format), { format });
        break;
      }
      case 'minLength': {
        const n = rules.minLength;
        if (n !== undefined)
          add<string>((s) => codePoints(s) >= n, 'min_length', minLengthError(name, n), { min: n });
        break;
      }
      case 'maxLength': {
        const n = rules.maxLength;
        if (n !== undefined)
          add<string>((s) => codePoints(s) <= n, 'max_length', maxLengthError(name, n), { max: n });
        break;
      }
      case 'min': {
        const n = rules.min;
        if (n !== undefined) add<number>((x) => x >= n, 'min', minError(name, n), { min: n });
        break;
      }
      case 'max': {
        const n = rules.max;
        if (n !== undefined) add<number>((x) => x <= n, 'max', maxError(name, n), { max: n });
        break;
      }
      case 'oneOf': {
        const values = rules.oneOf;
        if (values !== undefined) {
          const allowed = new Set(values);
          add<string>((s) => allowed.has(s), 'one_of', oneOfError(name, values), { values });
        }
        break;
      }
      case 'pattern': {
        if (rules.pattern === undefined) break;
        if (engine === undefined)
          throw new Error('a pattern rule is compiled with the pattern engine loaded');
        const re = compilePattern(engine, rules.pattern);
        // Linear in the input on RE2, and bounded: a longer value does not match.
        add<string>(
          (s) => s.length <= MAX_PATTERN_INPUT && re.matcher(s).find(),
          'pattern',
          patternError(name),
        );
        break;
      }
      case 'maxSize': {
        const n = rules.maxSize;
        if (n !== undefined)
          add<UploadedFile>((f) => f.size <= n, 'file_size', maxSizeError(name, n), { max: n });
        break;
      }
      case 'accept': {
        const types = rules.accept;
        if (types !== undefined)
          add<UploadedFile>((f) => accepts(types, f.type), 'file_type', acceptError(name, types), { types });
        break;
      }
      default: {
        // A rule of FieldRules with no case above is a compile error here, never a rule left unchecked.
        const unchecked: never = rule;
        throw new Error(`the rule '${String(unchecked)}' has no check`);
      }
    }
  }
  return checks;
}
