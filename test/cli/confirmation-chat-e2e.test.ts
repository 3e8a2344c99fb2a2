// C35 and C36 as a user tries them under `npm run dev`: the confirmation turned on (and opened, by
// the operator) for the example project with the tool, and the local mail file holding it, with the
// submitter's name; a Slack
// target pointing at a stand-in on this machine, and a well-formed message arriving with a hostile
// value shown as plain text.
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, receiverOnLoopback, spawnForms, startDev, tempDir } from './helpers.ts';

const dir = tempDir('integrations');
let port = 0;
let dev: ChildProcess | undefined;
let devLog: () => string = () => '';
const slack = receiverOnLoopback();
const posted = slack.received;

async function forms(...args: string[]) {
  const result = await spawnForms(['--persist-to', dir, ...args]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

async function submit(body: unknown) {
  const key = readFileSync(`${dir}/example-key`, 'utf8').trim();
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/submit`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      Origin: 'http://localhost:5173',
    },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
}

beforeAll(async () => {
  port = await freePort();
  const started = await startDev(dir, port);
  dev = started.process;
  devLog = started.log;
  // The confirmation needs an address field of the email format (C35).
  await forms('field', 'set', 'example', 'email:string:format=email');
  await forms('origin', 'add', 'example', 'http://localhost:5173');
});

afterAll(() => {
  if (dev?.pid) process.kill(-dev.pid, 'SIGTERM');
});

describe('C35 + C36 on npm run dev', () => {
  it('C35: the confirmation, turned on with the tool, is written to the local mail file with the submitter’s name', async () => {
    const body = join(dir, 'confirmation.txt');
    writeFileSync(body, 'Hello {{name}},\n\nThank you for writing to us about:\n{{message}}\n');
    await forms(
      'confirm',
      'set',
      'example',
      '--field',
      'email',
      '--subject',
      'Thank you for writing',
      '--body-file',
      body,
      '--reply-to',
      'owner@example.com',
      // The example project has no Turnstile (its siteverify needs the network): the operator opens
      // the confirmation to submissions that passed no challenge, the risk C35 names.
      '--open',
    );
    const logBefore = devLog().length;
    await submit({ name: 'Ada Lovelace', email: 'ada@example.com', message: 'Engines\nand numbers' });
    const deadline = Date.now() + 60_000;
    let path: string | undefined;
    while (path === undefined && Date.now() < deadline) {
      path = /Text: (\S+\.txt)/.exec(devLog().slice(logBefore))?.[1];
      if (path === undefined) await new Promise((r) => setTimeout(r, 250));
    }
    expect(path, devLog().slice(logBefore)).toBeDefined();
    expect(readFileSync(path ?? '', 'utf8')).toBe(
      'Hello Ada Lovelace,\n\nThank you for writing to us about:\nEngines\n  and numbers\n',
    );
    const logged = devLog().slice(logBefore);
    expect(logged).toContain('To: ada@example.com');
    expect(logged).toContain('Subject: Thank you for writing');
    const shown = await forms('confirm', 'show', 'example');
    expect(shown).toContain("To: the address in 'email' (open: without a Turnstile challenge too)");
  });

  it('C36: a Slack target on a local stand-in gets a well-formed message; a hostile value is plain text', async () => {
    const added = await forms(
      'webhook',
      'add',
      'example',
      `${slack.origin}/services/T0LOCAL/B0LOCAL/standin`,
      '--kind',
      'slack',
    );
    expect(added).toMatch(/^Added slack webhook wh_\w+\. Its URL is a secret/);
    expect(added).not.toContain('standin');
    const list = await forms('webhook', 'list', 'example');
    expect(list).toContain('slack');
    expect(list).not.toContain('standin');
    await submit({
      name: '<!channel> @here *now* <https://evil.example|click>',
      email: 'grace@example.com',
      message: 'Hi',
    });
    const deadline = Date.now() + 60_000;
    while (posted.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    const [first] = posted;
    expect(first?.path).toBe('/services/T0LOCAL/B0LOCAL/standin');
    const message = JSON.parse(first?.body ?? '{}') as {
      text: string;
      blocks: { type: string; text?: { type: string; text: string }; elements?: { text: string }[] }[];
    };
    expect(message.text).toBe('New submission: Example');
    expect(message.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'New submission: Example', emoji: false },
    });
    expect(message.blocks).toContainEqual({
      type: 'section',
      text: {
        type: 'plain_text',
        text: 'name\n<!channel> @here *now* <https://evil.example|click>',
        emoji: false,
      },
    });
    // `npm run dev` sets PUBLIC_URL: the message links to the submission in the dashboard.
    expect(message.blocks.at(-1)?.elements?.[0]?.text).toContain(
      `<http://127.0.0.1:${port}/admin/#/p/example/inbox/`,
    );
  });
});
