// C9, C11: the body of a submission, end to end through the worker: the media types taken and
// refused; a body that is not JSON, not an object, or holds no fields.
import { beforeAll, describe, expect, it } from 'vitest';
import { CREATED, expectEnvelope, seedProject, storedRows, submit } from './helpers.ts';

let project: { projectId: string; apiKey: string };
beforeAll(async () => {
  project = await seedProject();
});

describe('C9: media types', () => {
  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'APPLICATION/JSON',
    'Application/Json ; charset=utf-8',
    'application/vnd.api+json',
    'application/ld+json; profile="https://www.w3.org/ns/activitystreams"',
    'application/merge-patch+JSON',
  ])('C9: "%s" is accepted', async (contentType) => {
    const res = await submit({ key: project.apiKey, contentType, json: { name: contentType } });
    await expectEnvelope(res, 201, CREATED);
  });

  it.each([
    ['none', null],
    ['text/plain', 'text/plain'],
    ['text/json', 'text/json'],
    ['form encoding', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
    ['application/jsonp', 'application/jsonp'],
    ['application/json-seq', 'application/json-seq'],
    ['an empty +json subtype', 'application/+json'],
    ['application/xml', 'application/xml'],
  ])('C9: %s is 415', async (_, contentType) => {
    const p = await seedProject();
    const res = await submit({ key: p.apiKey, contentType, body: JSON.stringify({ name: 'x' }) });
    await expectEnvelope(res, 415, {
      message: 'Unsupported media type',
      error: { message: 'Content-Type must be application/json' },
    });
    expect(await storedRows(p.projectId)).toEqual([]);
  });
});

describe('C11: the body', () => {
  const notJson = { message: 'Invalid request body', error: { message: 'Request body is not valid JSON' } };
  const notObject = {
    message: 'Invalid request body',
    error: { message: 'Request body must be a JSON object' },
  };
  const noFields = { message: 'Invalid request body', error: { message: 'Submission has no fields' } };

  it.each([
    ['an empty body', ''],
    ['a truncated object', '{"name": "x"'],
    ['a bare word', 'hello'],
    ['a trailing comma', '{"name": "x",}'],
    ['single quotes', "{'name': 'x'}"],
    ['two values', '{} {}'],
  ])('C11: %s is 400 "Request body is not valid JSON"', async (_, body) => {
    const p = await seedProject();
    await expectEnvelope(await submit({ key: p.apiKey, body }), 400, notJson);
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C11: bytes that are not UTF-8 are not valid JSON (never silently replaced)', async () => {
    const p = await seedProject();
    const bytes = new Uint8Array([...new TextEncoder().encode('{"name":"'), 0xff, 0xfe, 0x22, 0x7d]);
    await expectEnvelope(await submit({ key: p.apiKey, body: bytes }), 400, notJson);
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it.each([
    ['an array', '[{"name": "x"}]'],
    ['a string', '"name"'],
    ['a number', '42'],
    ['null', 'null'],
    ['true', 'true'],
  ])('C11: %s is 400 "Request body must be a JSON object"', async (_, body) => {
    const p = await seedProject();
    await expectEnvelope(await submit({ key: p.apiKey, body }), 400, notObject);
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C11: {} is 400 "Submission has no fields" and stores no empty row', async () => {
    const p = await seedProject();
    await expectEnvelope(await submit({ key: p.apiKey, body: '{}' }), 400, noFields);
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C11: {} is refused before validation: "Submission has no fields" even where fields are required', async () => {
    const p = await seedProject({
      fields: [
        { name: 'name', type: 'string', required: true },
        { name: 'email', type: 'string', required: true },
      ],
    });
    await expectEnvelope(await submit({ key: p.apiKey, body: '{}' }), 400, noFields);
    // With the Turnstile token or the honeypot alone, nothing is left either.
    await expectEnvelope(
      await submit({ key: p.apiKey, json: { 'cf-turnstile-response': 'x' } }),
      400,
      noFields,
    );
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C11: nothing left after the discard policy is 400 "Submission has no fields"', async () => {
    const p = await seedProject({ unknownFields: 'discard' });
    await expectEnvelope(await submit({ key: p.apiKey, json: { other: 1, more: 'x' } }), 400, noFields);
    expect(await storedRows(p.projectId)).toEqual([]);
  });
});
