// C36: what every chat message makes of a submission (channels/slack.ts, channels/discord.ts): the
// project's name, each field as a name and its value, the time, and a link to the submission in
// the dashboard when the worker knows its own address; a value cut within a platform's limits says
// so.
import type { DeliveryToSend } from '../store/deliveries.ts';
import { LINE_BREAK } from './mail.ts';

export type Message = Pick<
  DeliveryToSend,
  'projectId' | 'projectName' | 'submissionId' | 'receivedAt' | 'data'
>;

/** Every Unicode line terminator as a plain line break; other control characters dropped. */
export function plainLines(text: string): string {
  return text
    .replace(LINE_BREAK, '\n')
    .replace(/\p{Cc}/gu, (ch) => (ch === '\n' ? ch : ch === '\t' ? ' ' : ''))
    .replace(/\n{3,}/g, '\n\n');
}

/** On one line: a name, a title. */
export const oneLine = (text: string) => plainLines(text).replace(/\n/g, ' ');

/** At most `max` characters (by code point), saying how many were cut. */
export function cut(text: string, max: number): string {
  const points = [...text];
  if (points.length <= max) return text;
  const note = (n: number) => `… (${n} more characters cut)`;
  const keep = max - note(points.length).length;
  return `${points.slice(0, Math.max(0, keep)).join('')}${note(points.length - Math.max(0, keep))}`;
}

/** A value as text: strings as they are, a file by its name, anything else as JSON. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string') {
    return `(file) ${(value as { name: string }).name}`;
  }
  return JSON.stringify(value);
}

export const link = (publicUrl: string | undefined, m: Message) =>
  publicUrl === undefined
    ? undefined
    : `${publicUrl}/admin/#/p/${encodeURIComponent(m.projectId)}/inbox/${encodeURIComponent(m.submissionId)}`;
