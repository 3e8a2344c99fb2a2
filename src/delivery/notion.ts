// C38: a submission as a page of a Notion database (`POST /v1/pages`, with `Notion-Version`): its
// properties are the fields by name, the first string field the page's title; a string is rich
// text, a number a number, a boolean a checkbox, a file a link or its name; every text within
// Notion's 2,000 characters.
import type { DeliveryToSend } from '../store/deliveries.ts';
import {
  apiUrl,
  fieldsOf,
  type IntegrationAnswer,
  type IntegrationContext,
  meaning,
  request,
  specsOf,
  textOf,
  within,
} from './integrations.ts';

export const NOTION_VERSION = '2022-06-28';
const PAGES = 'https://api.notion.com/v1/pages';
/** Notion's limit on one text object's content. */
export const NOTION_TEXT = 2000;

export type NotionConfig = { databaseId: string };

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

export async function sendToNotion(d: DeliveryToSend, ctx: IntegrationContext): Promise<IntegrationAnswer> {
  const reply = await request(ctx, apiUrl(PAGES, ctx.apiBase), {
    method: 'POST',
    headers: { Authorization: `Bearer ${d.secret}`, 'Notion-Version': NOTION_VERSION },
    body: notionPage(d, ctx.publicUrl),
  });
  // Notion asks for 3 requests a second on average; its 429 says when to come back.
  return meaning(reply, 30);
}
