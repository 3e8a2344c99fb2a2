// C47: what `npm run deploy` checks of mail, against the stand-in wrangler (test/cli/deploy-run.ts):
// while mail is set up (the [[send_email]] binding, or a provider), the example's sender stops a
// real deploy before anything and is warned of by the dry run; with a provider, a deploy reads the
// worker's secrets first and stops while its key is not among them, saying how to put it; the dry
// run asks no account and says the key is checked.
import { describe, expect, it } from 'vitest';
import { deploy } from './deploy-run.ts';

const UPDATE = {
  databases: ['edge-forms', 'edge-forms-eu'],
  worker: true,
  secrets: { ADMIN_TOKEN: 'x'.repeat(43) },
};
const provider =
  (name: string, more = '') =>
  (toml: string) =>
    toml
      .replace('EMAIL_PROVIDER = "cloudflare"', `EMAIL_PROVIDER = "${name}"`)
      .replace('EMAIL_REGION = ""', more);
/** wrangler.toml without the [[send_email]] binding: no mail unless a provider is named. */
const noBinding = (toml: string) => toml.replace(/\[\[send_email\]\]\nname = "EMAIL"\n/, '');

describe('npm run deploy: mail (C47)', () => {
  it('with the binding and the example sender, a deploy stops before anything is built; the dry run warns', async () => {
    const stopped = await deploy(UPDATE, { asShipped: true });
    expect(stopped.result.code).toBe(1);
    expect(stopped.calls).toEqual([]);
    expect(stopped.result.stderr).toContain(
      'EMAIL_FROM is still forms@example.com, and mail is set up (the [[send_email]] binding): set it to an address on your domain that Email Routing sends from (docs/deploy.md), or, sending no mail, delete the [[send_email]] block',
    );
    expect(stopped.result.stderr).toContain(
      '✗ check the mail settings failed: nothing was built or uploaded.',
    );
    const dry = await deploy({ loggedOut: true }, { asShipped: true, args: ['--dry-run'] });
    expect(dry.result.code, dry.result.stderr).toBe(0);
    expect(dry.result.stderr).toContain(
      '! EMAIL_FROM is still forms@example.com: no mail can be sent from it, and a deploy stops on it while mail is set up (C47)',
    );
  });

  it('without the binding and with Cloudflare, no mail is set up: the example sender is only a warning', async () => {
    const { result, calls } = await deploy(UPDATE, { asShipped: true, toml: noBinding });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('! EMAIL_FROM is still forms@example.com');
    expect(calls).toContain('wrangler deploy dist/worker/index.mjs --no-bundle');
  });

  it('a provider whose key the worker lacks stops a deploy before anything, saying how to put it; with it, the deploy goes on', async () => {
    const missing = await deploy(UPDATE, { toml: provider('resend') });
    expect(missing.result.code).toBe(1);
    expect(missing.calls).toEqual(['wrangler secret list --format json']);
    expect(missing.result.stderr).toContain(
      '✗ check the mail provider\'s key failed: EMAIL_PROVIDER is "resend", and the worker has no secret EMAIL_API_KEY: nothing was built or uploaded. Put it with `npx wrangler secret put EMAIL_API_KEY`',
    );
    const set = await deploy(
      { ...UPDATE, secrets: { ...UPDATE.secrets, EMAIL_API_KEY: 're_key_of_the_test' } },
      { toml: provider('resend') },
    );
    expect(set.result.code, set.result.stderr).toBe(0);
    expect(set.result.stdout).toContain('The worker has the key of EMAIL_PROVIDER "resend" (EMAIL_API_KEY).');
    expect(set.calls.slice(0, 3)).toEqual([
      'wrangler secret list --format json',
      'npm run -s build:assets',
      'npm run -s build:worker',
    ]);
    // The key itself is never read, printed or passed on.
    expect(`${set.result.stdout}${set.result.stderr}`).not.toContain('re_key_of_the_test');
    expect(JSON.stringify(set.state.calls.map((c) => c.args))).not.toContain('re_key_of_the_test');
  });

  it('a first deploy with a provider: no worker, no key yet; and secrets wrangler cannot read stop it too', async () => {
    const first = await deploy({}, { toml: provider('postmark') });
    expect(first.result.code).toBe(1);
    expect(first.calls).toEqual(['wrangler secret list --format json']);
    expect(first.result.stderr).toContain('on a first deploy it makes the worker');
    const loggedOut = await deploy({ failOn: 'wrangler secret list' }, { toml: provider('postmark') });
    expect(loggedOut.result.code).toBe(1);
    expect(loggedOut.result.stderr).toContain(
      "✗ check the mail provider's key failed: nothing was built or uploaded. Run `npm run deploy` again once wrangler can read the worker’s secrets",
    );
  });

  it('SES needs its secret access key and its region; an unknown provider stops it; the dry run warns of each and of the key', async () => {
    const noSecret = await deploy(
      { ...UPDATE, secrets: { ...UPDATE.secrets, EMAIL_API_KEY: 'AKIA0000' } },
      { toml: provider('ses', 'EMAIL_REGION = "eu-west-1"') },
    );
    expect(noSecret.result.code).toBe(1);
    expect(noSecret.result.stderr).toContain('the worker has no secret EMAIL_API_SECRET');
    expect(noSecret.result.stderr).toContain('`npx wrangler secret put EMAIL_API_SECRET`');
    const noRegion = await deploy(UPDATE, { toml: provider('ses', 'EMAIL_REGION = ""') });
    expect(noRegion.calls).toEqual([]);
    expect(noRegion.result.stderr).toContain('EMAIL_PROVIDER is "ses", and EMAIL_REGION is empty');
    const unknown = await deploy(UPDATE, { toml: provider('sendgrid', 'EMAIL_REGION = ""') });
    expect(unknown.calls).toEqual([]);
    expect(unknown.result.stderr).toContain(
      'EMAIL_PROVIDER is "sendgrid", which is none of cloudflare, resend',
    );
    const dry = await deploy(
      { loggedOut: true },
      { args: ['--dry-run'], toml: provider('ses', 'EMAIL_REGION = ""') },
    );
    expect(dry.result.code, dry.result.stderr).toBe(0);
    expect(dry.calls).not.toContain('wrangler secret list --format json');
    expect(dry.result.stderr).toMatch(
      /^Mail:\n {2}! EMAIL_PROVIDER is "ses", and EMAIL_REGION is empty: [^\n]+; a deploy stops on it\.\n {2}! EMAIL_PROVIDER is "ses": the worker needs EMAIL_API_KEY and EMAIL_API_SECRET as secrets \(`npx wrangler secret put EMAIL_API_KEY` and `npx wrangler secret put EMAIL_API_SECRET`\); a deploy reads its secrets and stops without them \(this dry run asks no account\)\.$/m,
    );
  });

  it("a mail stand-in over plain http is local development's, refused as the others are", async () => {
    const { result, calls } = await deploy(UPDATE, {
      toml: (t) =>
        t
          .replace('ALLOW_LOCAL_WEBHOOKS = "false"', 'ALLOW_LOCAL_WEBHOOKS = "true"')
          .replace('EMAIL_API_BASE = ""', 'EMAIL_API_BASE = "http://127.0.0.1:8790"'),
    });
    expect(result.code).toBe(1);
    expect(calls).toEqual([]);
    expect(result.stderr).toContain('EMAIL_API_BASE = "http://127.0.0.1:8790"');
  });
});
