// C38: a submission as a Telegram message (`POST /bot<token>/sendMessage`): plain text, no
// `parse_mode`, so nothing in a value formats or links; the project's name, each field as a name
// and its value, the time, and a link to the submission in the dashboard when the worker knows its
// address; cut to Telegram's 4,096 characters.
import * as v from 'valibot';
import type { DeliveryToSend } from '../../store/deliveries.ts';
import { apiUrl, httpRequest, meaning } from '../outbound.ts';
import { fieldsOf, textOf, within } from '../values.ts';
import { type IntegrationChannel, lastFour, serviceRules } from './channel.ts';

/** Telegram's limit on a message's text. */
export const TELEGRAM_TEXT = 4096;
export type TelegramConfig = { chatId: string };
/** C38: a 429 without a wait (in its header or its body) waits 30 seconds. */
const RULES = serviceRules(30);

export function telegramText(d: DeliveryToSend, publicUrl: string | undefined): string {
  const lines = [`New submission: ${d.projectName}`, ''];
  for (const [name, value] of fieldsOf(d)) {
    if (value !== undefined) lines.push(`${name}: ${textOf(value, d, publicUrl)}`);
  }
  lines.push('', d.receivedAt);
  if (publicUrl !== undefined) {
    lines.push(
      `${publicUrl}/admin/#/p/${encodeURIComponent(d.projectId)}/inbox/${encodeURIComponent(d.submissionId)}`,
    );
  }
  const text = lines.join('\n');
  const cutNote = '\n… (cut)';
  // Counted as Telegram counts (UTF-16 units), as within() cuts.
  return text.length <= TELEGRAM_TEXT ? text : `${within(text, TELEGRAM_TEXT - cutNote.length)}${cutNote}`;
}

/** A message's request: the bot's token in its path, as Telegram's API has it. */
export function telegramRequest(token: string, chatId: string, text: string, apiBase: string | undefined) {
  return {
    url: apiUrl(`https://api.telegram.org/bot${token}/sendMessage`, apiBase),
    body: JSON.stringify({ chat_id: chatId, text, disable_web_page_preview: true }),
  };
}

export const telegram: IntegrationChannel = {
  family: 'integration',
  name: 'Telegram',
  rules: RULES,
  help: "A message per submission. Make a bot with @BotFather, add it to the chat, and give the bot's token and the chat's id.",
  entries: {
    botToken: v.pipe(
      v.string(),
      v.regex(/^\d{5,20}:[A-Za-z0-9_-]{30,60}$/, 'botToken is what BotFather gave (digits, a colon, a key)'),
    ),
    chatId: v.pipe(
      v.union([v.string(), v.number()]),
      v.transform(String),
      v.regex(
        /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/,
        'chatId is a number (a group’s is negative) or @channel',
      ),
    ),
  },
  inputs: [
    {
      key: 'chatId',
      label: "Chat id (a group's is negative) or @channel",
      option: '--chat <id>',
      help: 'the chat id (a group’s is negative) or @channel',
    },
    {
      key: 'botToken',
      label: 'Bot token',
      option: '--token-file <path>',
      help: 'a file holding the token (- for standard input)',
      secret: { what: 'Bot token', kind: 'token' },
    },
  ],
  writesTo: 'chat {chatId}',
  stored: (input) => ({
    config: { chatId: String(input.chatId) },
    secret: String(input.botToken),
    url: 'https://api.telegram.org',
  }),
  shownSecret: (secret) => ({ last: lastFour(secret) }),
  async send(d, ctx) {
    const { chatId } = JSON.parse(d.config ?? '{}') as TelegramConfig;
    const { url, body } = telegramRequest(d.secret, chatId, telegramText(d, ctx.publicUrl), ctx.apiBase);
    const reply = await httpRequest(ctx, url, { method: 'POST', body, json: true });
    // Telegram says when to come back in its body (`parameters.retry_after`) as well as the header.
    const wait = (reply.json as { parameters?: { retry_after?: unknown } } | undefined)?.parameters
      ?.retry_after;
    const answer = meaning(
      typeof wait === 'number' && reply.status === 429 ? { ...reply, retryAfter: wait } : reply,
      RULES,
    );
    // The token is in the URL: whatever a failure says of it is never kept in the delivery log.
    const scrub = (t: string | null) => (t === null ? null : t.split(d.secret).join('…'));
    return { ...answer, error: scrub(answer.error), excerpt: scrub(answer.excerpt) };
  },
};
