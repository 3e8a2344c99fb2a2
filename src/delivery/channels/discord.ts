// C36: a submission as a Discord message, posted to a channel's webhook: an embed, told to mention
// nobody, every character of Discord's markdown escaped. A hook deleted (404, 410) disables the
// target.
import { cut, link, type Message, oneLine, plainLines, textOf } from '../chat-text.ts';
import { chatHook, type HookChannel } from './channel.ts';

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

export const discord: HookChannel = chatHook(
  {
    name: 'Discord',
    hosts: ['discord.com', 'discordapp.com', 'ptb.discord.com', 'canary.discord.com'],
    path: /^\/api\/webhooks\/\d+\/[\w-]+$/,
    example: 'https://discord.com/api/webhooks/<id>/<token>',
  },
  {
    label: 'Discord webhook',
    example: 'https://discord.com/api/webhooks/…',
    message: discordMessage,
    test: (projectName) =>
      JSON.stringify({
        allowed_mentions: { parse: [] },
        content: discordEscape(`A test message from edge-forms for ${projectName}`),
      }),
  },
);
