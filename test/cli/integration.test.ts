// `forms integration …` (C38), against a temporary local database: a key or token from a file or
// standard input, never from an argument, and never printed again but by its last four characters.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newServiceAccount } from '../standin.ts';
import { inProcess, toolOnTemp } from './helpers.ts';

const tool = toolOnTemp('integration');
const { forms, json, expectRefused } = tool;
const TOKEN = '123456789:AAcliCliCliCliCliCliCliCliCliCliCli9';

describe('forms integration', () => {
  it('adds Telegram with its token from standard input, lists it by the last four characters, removes it', async () => {
    const p = await tool.newProject();
    const piped = inProcess(tool.database, { stdin: `${TOKEN}\n` });
    const added = await piped(
      'integration',
      'add',
      p.projectId,
      'telegram',
      '--chat=-1001234567890',
      '--token-file',
      '-',
    );
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(
      /^Added telegram integration in_\w+ → chat -1001234567890\. Its secret is kept/,
    );
    expect(added.stdout).toContain('…Cli9');
    expect(added.stdout).not.toContain(TOKEN);
    const listed = await json<{
      integrations: { integrationId: string; secret: string; settings: object }[];
    }>('integration', 'list', p.projectId);
    expect(listed.integrations).toHaveLength(1);
    expect(listed.integrations[0]).toMatchObject({ secret: '…Cli9', settings: { chatId: '-1001234567890' } });
    expect(JSON.stringify(listed)).not.toContain(TOKEN);
    const id = listed.integrations[0]?.integrationId ?? '';
    expect((await forms('integration', 'remove', p.projectId, id)).stdout).toBe(
      `Removed integration ${id} from ${p.projectId}.\n`,
    );
    expect((await forms('integration', 'list', p.projectId)).stdout).toMatch(/^No integrations for /);
  });

  it("adds Google Sheets from the service account's key file, and says whom to share the sheet with", async () => {
    const p = await tool.newProject();
    const { account } = await newServiceAccount('forms@cli-test.iam.gserviceaccount.com');
    const file = join(tool.database.dir, 'key.json');
    writeFileSync(file, JSON.stringify(account));
    const added = await forms(
      'integration',
      'add',
      p.projectId,
      'google-sheets',
      '--spreadsheet',
      '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms',
      '--key-file',
      file,
    );
    expect(added.code).toBe(0);
    expect(added.stdout).toContain("sheet 'Sheet1' of 1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms");
    expect(added.stdout).toContain('Share the spreadsheet with forms@cli-test.iam.gserviceaccount.com');
    expect(added.stdout).not.toContain('PRIVATE KEY');
  });

  it('refuses what cannot work, in one line, changing nothing', async () => {
    const p = await tool.newProject();
    const notJson = join(tool.database.dir, 'not-json.txt');
    writeFileSync(notJson, 'hunter2');
    await expectRefused(['integration', 'add', p.projectId, 'zapier'], /Unknown kind 'zapier'/);
    await expectRefused(
      ['integration', 'add', p.projectId, 'airtable', '--table', 'T'],
      /airtable needs --base/,
    );
    await expectRefused(
      [
        'integration',
        'add',
        p.projectId,
        'google-sheets',
        '--spreadsheet',
        'x'.repeat(44),
        '--key-file',
        notJson,
      ],
      /The key file is not JSON/,
    );
    await expectRefused(
      [
        'integration',
        'add',
        p.projectId,
        'telegram',
        '--chat',
        '42',
        '--token-file',
        join(tool.database.dir, 'missing'),
      ],
      /Cannot read/,
    );
    const piped = inProcess(tool.database, { stdin: 'not-a-token-hunter2\n' });
    const refused = await piped(
      'integration',
      'add',
      p.projectId,
      'telegram',
      '--chat',
      '42',
      '--token-file',
      '-',
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/botToken/);
    expect(refused.stderr).not.toContain('hunter2');
  });
});
