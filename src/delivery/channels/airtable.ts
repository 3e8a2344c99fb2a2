// C38: submissions as records of an Airtable table (`POST /v0/<base>/<table>` with
// `{"records":[{"fields":{…}}]}`): up to 10 records a request when several wait for the same table,
// and at most 5 requests a second per base from an isolate (Airtable's limit; its 429 asks for 30
// seconds). A field is written by its name: a number or a boolean as it is, a file as a link or its
// name, the rest as text.
import * as v from 'valibot';
import type { DeliveryToSend } from '../../store/deliveries.ts';
import { type AttemptResult, apiUrl, httpRequest, meaning, paced } from '../outbound.ts';
import { fieldsOf, textOf } from '../values.ts';
import { type IntegrationChannel, lastFour, type SendContext, serviceRules, settingText } from './channel.ts';

/** Airtable takes at most 10 records a request. */
export const AIRTABLE_BATCH = 10;
/** 5 requests a second per base. */
const REQUEST_INTERVAL_MS = 200;
/** A long text field holds at most 100,000 characters. */
const TEXT_CHARACTERS = 100_000;
/** C38: Airtable's 429 asks for 30 seconds. */
const RULES = serviceRules(30);

export type AirtableConfig = { baseId: string; table: string };

/**
 * C38: a name that a URL would resolve as a dot segment (`.`, `..`), posting elsewhere on the API
 * (`…/v0/app…/..` is `…/v0/`): refused when the integration is added, and never sent to.
 */
export const isDotSegment = (table: string) => table === '.' || table === '..';

/** C38: a table's address under its base: the name is one path segment. */
export const airtableTableUrl = (baseId: string, table: string) =>
  `https://api.airtable.com/v0/${encodeURIComponent(baseId)}/${encodeURIComponent(table)}`;

export function airtableFields(d: DeliveryToSend, publicUrl: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of fieldsOf(d)) {
    if (value === undefined || value === null) continue;
    out[name] =
      typeof value === 'number' || typeof value === 'boolean'
        ? value
        : textOf(value, d, publicUrl).slice(0, TEXT_CHARACTERS);
  }
  return out;
}

/** One request for deliveries to the same table (at most AIRTABLE_BATCH): one answer for all. */
async function sendBatch(batch: readonly DeliveryToSend[], ctx: SendContext): Promise<AttemptResult> {
  const first = batch[0];
  if (first === undefined) return { ok: true, status: null, error: null, excerpt: null };
  const { baseId, table } = JSON.parse(first.config ?? '{}') as AirtableConfig;
  // A row stored before the name was checked: nothing is sent.
  if (isDotSegment(table)) {
    return {
      ok: false,
      final: true,
      status: null,
      error: `the table '${table}' is no table's name`,
      excerpt: null,
    };
  }
  await paced(`airtable ${baseId}`, REQUEST_INTERVAL_MS);
  const reply = await httpRequest(ctx, apiUrl(airtableTableUrl(baseId, table), ctx.apiBase), {
    method: 'POST',
    headers: { Authorization: `Bearer ${first.secret}` },
    body: JSON.stringify({
      records: batch.map((d) => ({ fields: airtableFields(d, ctx.publicUrl) })),
      typecast: true,
    }),
    json: true,
  });
  return meaning(reply, RULES);
}

export const airtable: IntegrationChannel = {
  family: 'integration',
  name: 'Airtable',
  rules: RULES,
  help: 'A record per submission in a table whose fields are named like yours. Make a personal access token with data.records:write on the base.',
  entries: {
    token: settingText(300, 'token'),
    baseId: v.pipe(
      v.string(),
      v.regex(/^app[A-Za-z0-9]{14}$/, 'baseId is app… (17 characters, in the base’s address)'),
    ),
    table: v.pipe(
      settingText(200, 'table'),
      v.check((t) => !isDotSegment(t), "table is the table's id (tbl…) or its name, not '.' or '..'"),
    ),
  },
  inputs: [
    { key: 'baseId', label: 'Base id (app…)', option: '--base <id>', help: "the base's id (app…)" },
    { key: 'table', label: 'Table', option: '--table <name>', help: "the table's name or id" },
    {
      key: 'token',
      label: 'Personal access token',
      option: '--token-file <path>',
      help: 'a file holding the token (- for standard input)',
      secret: { what: 'Airtable token', kind: 'token' },
    },
  ],
  writesTo: 'table “{table}” of {baseId}',
  stored: (input) => ({
    config: { baseId: String(input.baseId), table: String(input.table) },
    secret: String(input.token),
    url: airtableTableUrl(String(input.baseId), String(input.table)),
  }),
  shownSecret: (secret) => ({ last: lastFour(secret) }),
  send: (d, ctx) => sendBatch([d], ctx),
  batch: { size: AIRTABLE_BATCH, send: sendBatch },
};
