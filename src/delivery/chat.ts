// C36: a submission as a Slack or Discord message, posted to the channel's incoming webhook: the
// project's name, each field as a name and its value, the time, and a link to the submission in
// the dashboard when the worker knows its own address. Within each platform's limits (a cut value
// says so), and with nothing a submitted value holds able to mention anyone, link anywhere or
// format anything: Slack is given plain text, which it never parses; Discord is told to mention
// nobody, and every character of its markdown is escaped.
import type { DeliveryToSend } from '../store/deliveries.ts';
import { LINE_BREAK } from './email.ts';

export type ChatKind = 'slack' | 'discord';
type Message = Pick<DeliveryToSend, 'projectId' | 'projectName' | 'submissionId' | 'receivedAt' | 'data'>;

/** Every Unicode line terminator as a plain line break; other control characters dropped. */
function plainLines(text: string): string {
  return text
    .replace(LINE_BREAK, '\n')
    .replace(/\p{Cc}/gu, (ch) => (ch === '\n' ? ch : ch === '\t' ? ' ' : ''))
    .replace(/\n{3,}/g, '\n\n');
}

/** On one line: a name, a title. */
const oneLine = (text: string) => plainLines(text).replace(/\n/g, ' ');

/** At most `max` characters (by code point), saying how many were cut. */
export function cut(text: string, max: number): string {
  const points = [...text];
  if (points.length <= max) return text;
  const note = (n: number) => `… (${n} more characters cut)`;
  const keep = max - note(points.length).length;
  return `${points.slice(0, Math.max(0, keep)).join('')}${note(points.length - Math.max(0, keep))}`;
}

/** A value as text: strings as they are, a file by its name, anything else as JSON. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string') {
    return `(file) ${(value as { name: string }).name}`;
  }
  return JSON.stringify(value);
}

const link = (publicUrl: string | undefined, m: Message) =>
  publicUrl === undefined
    ? undefined
    : `${publicUrl}/admin/#/p/${encodeURIComponent(m.projectId)}/inbox/${encodeURIComponent(m.submissionId)}`;

// Slack (https://api.slack.com/reference/block-kit/blocks): at most 50 blocks; a header's plain
// text at most 150 characters, a section's 3,000. Plain text is never read for mentions, links or
// formatting, so no escaping is needed there; `&`, `<` and `>` are escaped where Slack reads text.
const SLACK_BLOCKS = 50;
const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const plain = (text: string) => ({ type: 'plain_text', text, emoji: false });

export function slackMessage(m: Message, publicUrl?: string): string {
  const fields = Object.entries(JSON.parse(m.data) as Record<string, unknown>);
  const room = SLACK_BLOCKS - 3;
  const shown = fields.length > room ? fields.slice(0, room - 1) : fields;
  const title = cut(oneLine(`New submission: ${m.projectName}`), 150);
  const blocks: unknown[] = [
    { type: 'header', text: plain(title) },
    ...shown.map(([name, value]) => ({
      type: 'section',
      text: plain(cut(`${oneLine(name)}\n${plainLines(textOf(value))}`, 3000)),
    })),
  ];
  if (shown.length < fields.length) {
    blocks.push({
      type: 'section',
      text: plain(`${fields.length - shown.length} more fields are not shown`),
    });
  }
  const url = link(publicUrl, m);
  blocks.push({
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: `${slackEscape(m.receivedAt)}${url === undefined ? '' : ` · <${slackEscape(url)}|Open it in the dashboard>`}`,
      },
    ],
  });
  return JSON.stringify({ text: slackEscape(title), blocks });
}

// Discord (https://discord.com/developers/docs/resources/message#embed-object-embed-limits): a
// title at most 256 characters, at most 25 fields, a field's name 256 and value 1,024, and 6,000 in
// all. `allowed_mentions` with nothing to parse: no @everyone, @here, user or role is pinged.
const DISCORD_FIELDS = 25;
const DISCORD_TOTAL = 6000;

/** Discord's markdown, mentions and masked links, escaped: every character shows as itself. */
export function discordEscape(text: string): string {
  return text.replace(/[\\*_~`|>#[\]()<:@-]/g, (ch) => (ch === '@' ? '@\u200b' : `\\${ch}`));
}

export function discordMessage(m: Message, publicUrl?: string): string {
  const entries = Object.entries(JSON.parse(m.data) as Record<string, unknown>);
  // Cut before escaping, which at most doubles a text: each stays within its limit escaped.
  const title = discordEscape(cut(oneLine(`New submission: ${m.projectName}`), 120));
  const fields: { name: string; value: string; inline: boolean }[] = [];
  let total = title.length + 60;
  for (const [name, value] of entries) {
    // The last place is kept for the note that says how many more there are.
    if (fields.length === DISCORD_FIELDS - 1 && entries.length > DISCORD_FIELDS) break;
    const text = plainLines(textOf(value));
    const field = {
      name: discordEscape(cut(oneLine(name), 120)),
      value: discordEscape(cut(text === '' ? '—' : text, 480)),
      inline: false,
    };
    if (total + field.name.length + field.value.length > DISCORD_TOTAL) break;
    total += field.name.length + field.value.length;
    fields.push(field);
  }
  const left = entries.length - fields.length;
  const url = link(publicUrl, m);
  const embed = {
    title,
    ...(url === undefined ? {} : { url }),
    timestamp: m.receivedAt,
    fields,
    ...(left > 0 ? { footer: { text: `${left} more fields are not shown` } } : {}),
  };
  return JSON.stringify({ allowed_mentions: { parse: [] }, embeds: [embed] });
}

/** The message of a delivery to a chat target. */
export const chatMessage = (kind: ChatKind, m: Message, publicUrl?: string) =>
  kind === 'slack' ? slackMessage(m, publicUrl) : discordMessage(m, publicUrl);

/** A test message, for `webhook test` and the dashboard's Test button. */
export function chatTest(kind: ChatKind, projectName: string): string {
  const text = `A test message from edge-forms for ${projectName}`;
  return kind === 'slack'
    ? JSON.stringify({ text: slackEscape(text), blocks: [{ type: 'section', text: plain(text) }] })
    : JSON.stringify({ allowed_mentions: { parse: [] }, content: discordEscape(text) });
}
