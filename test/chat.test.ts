// C36: Slack and Discord, targets of the outbox sent by the queue consumer (run here as Cloudflare
// runs it): their own hosts only (a platform's home, src/lib/destinations.ts), the URL shown by its
// start and last four, a message within each platform's limits that no value can turn into a
// mention, a link or markup. What every channel does alike (what an answer means, a redirect, how
// much of an answer is read, the secret never shown whole, the test message) is
// test/channels.test.ts's.
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { discord } from '../src/delivery/channels/discord.ts';
import { slack } from '../src/delivery/channels/slack.ts';
import { type HookHome, hookProblem } from '../src/lib/destinations.ts';
import { api, newProject, ok, problem } from './manage/helpers.ts';
import { consume, deliveryRow } from './queue.ts';
import { FIELDS, submitted } from './submitted.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

type Received = { url: string; body: Record<string, unknown> };

/** The platform: answers each call with the next status (the last repeats), recording what came. */
function platform(...statuses: [number, Record<string, string>?][]) {
  const calls: Received[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    calls.push({ url: request.url, body: (await request.json()) as Record<string, unknown> });
    const [status, headers] = statuses[Math.min(calls.length - 1, statuses.length - 1)] ?? [200];
    return new Response(status === 204 ? null : 'ok', { status, headers: headers ?? {} });
  });
  return calls;
}

const SLACK = 'https://hooks.slack.com/services/T0001/B0001/abcdefghijklmnopqrstuvwx';
const DISCORD = 'https://discord.com/api/webhooks/123456789/abcdefghijklmnop-qrstuvwxyz';
const HOSTILE = {
  name: '<!channel> @here @everyone <@U123> <@&987> *bold* _it_ ~s~ `code` > quote',
  email: 'x@example.com',
  message: `[click](https://evil.example) <https://evil.example|here> &amp; line1\r\nline2\u2028line3\u2029line4\u0085line5 ${'y'.repeat(5000)}`,
};

async function chatProject(kind: 'slack' | 'discord', url: string) {
  const p = await newProject(FIELDS);
  // The values sent are hostile on purpose (links, markup): with the spam filter off (C39) they
  // reach the formatter, which is what these tests are about.
  await ok(await api('PATCH', `/projects/${p.projectId}`, { body: { spamFilter: { mode: 'off' } } }));
  const hook = await ok<{ webhookId: string; url: string; secret?: string }>(
    await api('POST', `/projects/${p.projectId}/webhooks`, { body: { url, kind } }),
    201,
  );
  return { ...p, hook };
}

describe('C36: Slack and Discord', () => {
  it('C36: only their own hosts; the URL listed by its host, the start of its path and its last four', async () => {
    const p = await newProject(FIELDS);
    for (const [kind, url] of [
      ['slack', 'https://example.com/services/T/B/x'],
      ['slack', 'http://hooks.slack.com/services/T/B/x'],
      ['discord', 'https://discord.com.evil.example/api/webhooks/1/x'],
      ['discord', 'https://discord.com/api/other/1/x'],
    ]) {
      expect(
        await problem(await api('POST', `/projects/${p.projectId}/webhooks`, { body: { url, kind } }), 400),
      ).toMatch(new RegExp(`^Invalid ${kind} URL: a \\w+ target is one of`));
    }
    // The token is the path's end: what is shown of it is its last four characters.
    expect(slack.shown(SLACK)).toBe('https://hooks.slack.com/services/T0001/…uvwx');
    expect(discord.shown(DISCORD)).toBe('https://discord.com/api/webhooks/…wxyz');
  });

  it('C36: Slack gets plain text it never reads for mentions, links or markup; values cut, lines normalised', async () => {
    const p = await chatProject('slack', SLACK);
    const calls = platform([200]);
    const id = await submitted(p, p.hook.webhookId, HOSTILE);
    await consume(id, 1, { ...env, PUBLIC_URL: 'https://forms.example.com' } as unknown as Env);
    const body = calls[0]?.body as {
      text: string;
      blocks: {
        type: string;
        text?: { type: string; text: string; emoji?: boolean };
        elements?: { type: string; text: string }[];
      }[];
    };
    expect(body.blocks.length).toBeLessThanOrEqual(50);
    expect(body.blocks[0]).toMatchObject({ type: 'header', text: { type: 'plain_text', emoji: false } });
    const sections = body.blocks.filter((b) => b.type === 'section');
    for (const s of sections) {
      expect(s.text?.type).toBe('plain_text');
      expect([...(s.text?.text ?? '')].length).toBeLessThanOrEqual(3000);
    }
    const message = sections.find((s) => s.text?.text.startsWith('message'))?.text?.text ?? '';
    expect(message).toMatch(
      /^message\n\[click\]\(https:\/\/evil\.example\) <https:\/\/evil\.example\|here> &amp; line1\nline2\nline3\nline4\nline5 y+… \(\d+ more characters cut\)$/,
    );
    const context = body.blocks.at(-1)?.elements?.[0]?.text ?? '';
    expect(context).toContain('<https://forms.example.com/admin/#/p/');
    // The only text Slack reads for markup is escaped, and holds nothing submitted.
    expect(body.text).not.toMatch(/[<>]/);
    expect(await deliveryRow(id)).toMatchObject({ status: 'delivered' });
  });

  it('C36: Discord mentions nobody, and every markdown character of a value shows as itself; limits kept', async () => {
    const p = await chatProject('discord', DISCORD);
    const calls = platform([204]);
    const id = await submitted(p, p.hook.webhookId, HOSTILE);
    await consume(id);
    const body = calls[0]?.body as {
      allowed_mentions: unknown;
      embeds: { title: string; fields: { name: string; value: string }[] }[];
    };
    expect(body.allowed_mentions).toEqual({ parse: [] });
    const [embed] = body.embeds;
    const name = embed?.fields.find((f) => f.name === 'name')?.value ?? '';
    expect(name).toBe(
      '\\<\\!channel\\> @\u200bhere @\u200beveryone \\<@\u200bU123\\> \\<@\u200b&987\\> \\*bold\\* \\_it\\_ \\~s\\~ \\`code\\` \\> quote'.replace(
        '\\!',
        '!',
      ),
    );
    const message = embed?.fields.find((f) => f.name === 'message')?.value ?? '';
    expect(message.startsWith('\\[click\\]\\(https\\://evil.example\\)')).toBe(true);
    for (const f of embed?.fields ?? []) {
      expect(f.name.length).toBeLessThanOrEqual(256);
      expect(f.value.length).toBeLessThanOrEqual(1024);
    }
    expect(await deliveryRow(id)).toMatchObject({ status: 'delivered' });
  });

  it('C36: many long fields stay within 25 fields and 6,000 characters, saying how many are not shown', async () => {
    const fields = Array.from({ length: 40 }, (_, i) => ({ name: `f${i}`, type: 'string' }));
    const p = await newProject(fields);
    const hook = await ok<{ webhookId: string }>(
      await api('POST', `/projects/${p.projectId}/webhooks`, { body: { url: DISCORD, kind: 'discord' } }),
      201,
    );
    const calls = platform([204]);
    const id = await submitted(
      p,
      hook.webhookId,
      Object.fromEntries(fields.map((f) => [f.name, 'z'.repeat(600)])),
    );
    await consume(id);
    const body = calls[0]?.body as
      | { embeds: { title: string; fields: { name: string; value: string }[]; footer?: { text: string } }[] }
      | undefined;
    const [embed] = body?.embeds ?? [];
    const total =
      (embed?.title.length ?? 0) +
      (embed?.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0) +
      (embed?.footer?.text.length ?? 0);
    expect(embed?.fields.length).toBeLessThanOrEqual(25);
    expect(total).toBeLessThanOrEqual(6000);
    expect(embed?.footer?.text).toBe(`${40 - (embed?.fields.length ?? 0)} more fields are not shown`);
  });
});

describe("C36: a chat platform's home", () => {
  // A platform whose hooks live under hosts of their own, one per customer, under more than one
  // suffix (a Microsoft Teams workflow's: a region's host under logic.azure.com, an environment's
  // under environment.api.powerplatform.com).
  const home: HookHome = {
    name: 'Workflows',
    hosts: [],
    hostSuffixes: ['logic.azure.com', 'environment.api.powerplatform.com'],
    path: /^\/workflows\/[\w-]+$/,
    example: 'https://<host>.logic.azure.com/workflows/<id>',
  };
  const refusal = `a Workflows target is one of Workflows's incoming webhooks: ${home.example}`;

  it('C36: takes a host of its own under any of its suffixes', () => {
    for (const url of [
      'https://prod-27.logic.azure.com/workflows/abc',
      'https://default0123abcd.environment.api.powerplatform.com/workflows/abc',
    ]) {
      expect(hookProblem(url, home, false), url).toBeUndefined();
    }
  });

  it('C36: refuses a look-alike of either suffix, the suffix alone, and a name with dots under it', () => {
    for (const url of [
      'https://evil-logic.azure.com/workflows/abc',
      'https://logic.azure.com.evil.test/workflows/abc',
      'https://prod-27.logic.azure.com.evil.test/workflows/abc',
      'https://evilenvironment.api.powerplatform.com/workflows/abc',
      'https://logic.azure.com/workflows/abc',
      'https://evil.test.logic.azure.com/workflows/abc',
    ]) {
      expect(hookProblem(url, home, false), url).toBe(refusal);
    }
  });
});
