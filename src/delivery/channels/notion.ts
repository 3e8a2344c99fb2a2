// C38: a submission as a page of a Notion database (`POST /v1/pages`, with `Notion-Version`): its
// properties are the fields by name, the first string field the page's title; a string is rich
// text, a number a number, a boolean a checkbox, a file a link or its name; every text within
// Notion's 2,000 characters.
import * as v from 'valibot';
import type { DeliveryToSend } from '../../store/deliveries.ts';
import { apiUrl, httpRequest, meaning } from '../outbound.ts';
import { fieldsOf, specsOf, textOf, within } from '../values.ts';
import { type IntegrationChannel, lastFour, serviceRules, settingText } from './channel.ts';

export const NOTION_VERSION = '2022-06-28';
const PAGES = 'https://api.notion.com/v1/pages';
/** Notion's limit on one text object's content. */
export const NOTION_TEXT = 2000;

export type NotionConfig = { databaseId: string };

/** C38: Notion asks for 3 requests a second on average; its 429 says when to come back. */
const RULES = serviceRules(30);

const text = (content: string) => [{ type: 'text', text: { content: within(content, NOTION_TEXT) } }];

/** The page's properties: the title from the first string field, each other field by its type. */
export function notionProperties(d: DeliveryToSend, publicUrl: string | undefined): Record<string, unknown> {
  // The title is the first string field by the project's fields, whatever this submission holds:
  // a database has one title column, always the same one.
  const titled = specsOf(d).find((f) => f.type === 'string')?.name ?? specsOf(d)[0]?.name;
  const properties: Record<string, unknown> = {};
  for (const [name, value] of fieldsOf(d)) {
    if (name === titled)
      properties[name] = { title: value === undefined ? [] : text(textOf(value, d, publicUrl)) };
    else if (value === undefined) continue;
    else if (typeof value === 'number') properties[name] = { number: value };
    else if (typeof value === 'boolean') properties[name] = { checkbox: value };
    else properties[name] = { rich_text: text(textOf(value, d, publicUrl)) };
  }
  return properties;
}

export function notionPage(d: DeliveryToSend, publicUrl: string | undefined): string {
  const { databaseId } = JSON.parse(d.config ?? '{}') as NotionConfig;
  return JSON.stringify({ parent: { database_id: databaseId }, properties: notionProperties(d, publicUrl) });
}

export const notion: IntegrationChannel = {
  family: 'integration',
  name: 'Notion',
  rules: RULES,
  help: 'A page per submission in a database whose columns are named like your fields. Make an internal integration, copy its secret, and connect it to the database (••• → Connections).',
  entries: {
    token: settingText(300, 'token'),
    databaseId: v.pipe(
      v.string(),
      v.trim(),
      v.transform((id) => id.replace(/-/g, '').toLowerCase()),
      v.regex(/^[0-9a-f]{32}$/, 'databaseId is the 32 hexadecimal digits in the database’s link'),
    ),
  },
  inputs: [
    {
      key: 'databaseId',
      label: 'Database id (the 32 characters in its link)',
      option: '--database <id>',
      help: "the database's id (the 32 characters in its link)",
    },
    {
      key: 'token',
      label: 'Integration secret',
      option: '--token-file <path>',
      help: 'a file holding the token (- for standard input)',
      secret: { what: 'Notion token', kind: 'token' },
    },
  ],
  writesTo: 'database {databaseId}',
  stored: (input) => ({
    config: { databaseId: String(input.databaseId) },
    secret: String(input.token),
    url: `https://api.notion.com/v1/databases/${String(input.databaseId)}`,
  }),
  shownSecret: (secret) => ({ last: lastFour(secret) }),
  async send(d, ctx) {
    const reply = await httpRequest(ctx, apiUrl(PAGES, ctx.apiBase), {
      method: 'POST',
      headers: { Authorization: `Bearer ${d.secret}`, 'Notion-Version': NOTION_VERSION },
      body: notionPage(d, ctx.publicUrl),
      json: true,
    });
    return meaning(reply, RULES);
  },
};
