// The client's React part (client/src/react.ts) without a DOM: the form's state as a pure reducer,
// its fields' texts, and what FieldError renders (C43's codes, translated or as the worker wrote them).
import { describe, expect, it } from 'vitest';
import type { SubmitResult } from '../../client/src/index.ts';
import {
  errorTexts,
  FieldError,
  type FormModel,
  fieldErrorId,
  formReducer,
  initialForm,
} from '../../client/src/react.ts';

type Contact = { email: string; age: number };

const FAILED: SubmitResult<Contact> = {
  ok: false,
  status: 400,
  code: 'validation_failed',
  message: 'Validation failed',
  fieldErrors: {
    email: [
      { code: 'format', message: "Field 'email' must be an email address", params: { format: 'email' } },
    ],
    age: [{ code: 'min', message: "Field 'age' must be at least 18", params: { min: 18 } }],
  },
};

const run = (...actions: Parameters<typeof formReducer<Contact>>[1][]): FormModel<Contact> =>
  actions.reduce(formReducer<Contact>, initialForm);

describe('useForm’s reducer', () => {
  it('idle → submitting → succeeded, with nothing to show', () => {
    expect(run()).toEqual({ state: 'idle', fieldErrors: {} });
    expect(run({ type: 'submit' })).toEqual({ state: 'submitting', fieldErrors: {} });
    expect(run({ type: 'submit' }, { type: 'done', result: { ok: true } })).toEqual({
      state: 'succeeded',
      fieldErrors: {},
    });
  });

  it('C43: a failure keeps its fields’ problems, its message and its code; the next submission clears them', () => {
    const failed = run({ type: 'submit' }, { type: 'done', result: FAILED });
    expect(failed).toEqual({
      state: 'failed',
      fieldErrors: FAILED.ok ? {} : FAILED.fieldErrors,
      message: 'Validation failed',
      code: 'validation_failed',
    });
    expect(formReducer(failed, { type: 'submit' })).toEqual({ state: 'submitting', fieldErrors: {} });
    const network = run(
      { type: 'submit' },
      {
        type: 'done',
        result: { ok: false, status: 0, code: 'network_error', message: 'fetch failed', fieldErrors: {} },
      },
    );
    expect(network).toMatchObject({ state: 'failed', code: 'network_error' });
  });

  it('reset goes back to idle, and a result that arrives after it changes nothing', () => {
    const reset = run({ type: 'submit' }, { type: 'reset' });
    expect(reset).toBe(initialForm);
    expect(formReducer(reset, { type: 'done', result: FAILED })).toBe(reset);
    const failed = run({ type: 'submit' }, { type: 'done', result: FAILED });
    expect(formReducer(failed, { type: 'done', result: { ok: true } })).toBe(failed);
  });
});

describe('the fields’ texts', () => {
  const fieldErrors = FAILED.ok ? {} : FAILED.fieldErrors;

  it('by field name: the worker’s texts, or in the visitor’s language with the fields’ labels', () => {
    expect(errorTexts(fieldErrors)).toEqual({
      email: "Field 'email' must be an email address",
      age: "Field 'age' must be at least 18",
    });
    expect(errorTexts(fieldErrors, { lang: 'de', labels: { email: 'E-Mail' } })).toEqual({
      email: '„E-Mail“ muss eine E-Mail-Adresse sein.',
      age: '„age“ muss mindestens 18 sein.',
    });
  });

  it('C13: a field named __proto__ is a field like another', () => {
    const texts = errorTexts({ ['__proto__']: [{ code: 'unknown_field', message: 'no' }] } as never, {
      lang: 'en',
    });
    expect(Object.keys(texts)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(texts)).toBe(Object.prototype);
  });
});

describe('FieldError', () => {
  const fieldErrors = FAILED.ok ? {} : FAILED.fieldErrors;

  it('renders nothing for a field without problems', () => {
    expect(FieldError<Contact>({ errors: undefined, field: 'email' })).toBeNull();
    expect(FieldError<Contact>({ errors: {}, field: 'email' })).toBeNull();
    expect(FieldError({ errors: fieldErrors, field: 'toString' as 'email' })).toBeNull();
  });

  it('renders the field’s messages in an alert the input can name in aria-describedby, translated when asked', () => {
    const element = FieldError({ errors: fieldErrors, field: 'email' });
    expect(element?.type).toBe('p');
    expect(element?.props).toEqual({
      id: fieldErrorId('email'),
      role: 'alert',
      className: undefined,
      children: "Field 'email' must be an email address",
    });
    expect(fieldErrorId('email')).toBe('email-error');
    const french = FieldError({
      errors: fieldErrors,
      field: 'email',
      lang: 'fr-CA',
      label: 'Courriel',
      id: 'c-err',
    });
    expect(french?.props).toMatchObject({
      id: 'c-err',
      children: 'Le champ «\u202fCourriel\u202f» doit contenir une adresse e-mail.',
    });
    expect(FieldError({ errors: fieldErrors, field: 'age', lang: 'ja' })?.props).toMatchObject({
      children: '「age」には18以上の値を入力してください。',
    });
  });
});
