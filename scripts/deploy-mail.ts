// C47: what `npm run deploy` checks of mail, so that a deployment never goes out unable to send it.
// Mail is set up when wrangler.toml has the `send_email` binding (EMAIL) or names a provider; then
// the example's sender, an unknown provider or SES without its region stop a deploy before
// anything is built, and with a provider the worker's secrets are read (as the operator token's
// are) and a deploy stops while its key is not among them. The dry run asks no account: it warns
// of the same settings and says the key is checked by the deploy.
import { wranglerJson } from '../toolkit/database.ts';
import { run, StepFailed, step } from './deploy-steps.ts';

const PROVIDERS = ['cloudflare', 'resend', 'postmark', 'mailgun', 'ses'];
/** The sender wrangler.toml ships with, and its kin: no mail is ever sent from them. */
export const EXAMPLE_SENDER = /@example\.(?:com|net|org)$/i;

export type MailPlan = {
  provider: string;
  /** The binding, or a provider: mail can be sent. */
  setUp: boolean;
  /** What stops a deploy, each with what to do; `sender`: the example's, which the warnings say too. */
  problems: { sender: boolean; line: string }[];
  /** The secrets the provider needs on the worker. */
  secrets: string[];
};

/** Mail as wrangler.toml sets it up. */
export function mailPlan(vars: Record<string, unknown>, hasBinding: boolean): MailPlan {
  const text = (name: string) => (typeof vars[name] === 'string' ? (vars[name] as string).trim() : '');
  const provider = (text('EMAIL_PROVIDER') || 'cloudflare').toLowerCase();
  const known = PROVIDERS.includes(provider);
  const setUp = hasBinding || provider !== 'cloudflare';
  const from = text('EMAIL_FROM');
  const problems: MailPlan['problems'] = [];
  if (!known)
    problems.push({
      sender: false,
      line: `EMAIL_PROVIDER is "${provider}", which is none of ${PROVIDERS.join(', ')} (docs/delivery.md)`,
    });
  if (setUp && (from === '' || EXAMPLE_SENDER.test(from)))
    problems.push({
      sender: true,
      line: `EMAIL_FROM is ${from === '' ? 'empty' : `still ${from}`}, and mail is set up (${hasBinding ? 'the [[send_email]] binding' : `EMAIL_PROVIDER "${provider}"`}): set it to an address on your domain that ${provider === 'cloudflare' ? 'Email Routing' : 'the provider'} sends from (docs/deploy.md)${hasBinding && provider === 'cloudflare' ? ', or, sending no mail, delete the [[send_email]] block' : ''}`,
    });
  if (provider === 'ses' && text('EMAIL_REGION') === '')
    problems.push({
      sender: false,
      line: 'EMAIL_PROVIDER is "ses", and EMAIL_REGION is empty: set it to the region of your verified identities ("eu-west-1")',
    });
  const secrets =
    !known || provider === 'cloudflare'
      ? []
      : ['EMAIL_API_KEY', ...(provider === 'ses' ? ['EMAIL_API_SECRET'] : [])];
  return { provider, setUp, problems, secrets };
}

const putting = (names: string[]) => names.map((name) => `\`npx wrangler secret put ${name}\``).join(' and ');

/** The dry run's warnings of mail: what a deploy would stop on (the example's sender is said with the rest), and the key. */
export function mailWarnings(plan: MailPlan): string[] {
  return [
    ...plan.problems.filter((p) => !p.sender).map((p) => `${p.line}; a deploy stops on it`),
    ...(plan.secrets.length === 0
      ? []
      : [
          `EMAIL_PROVIDER is "${plan.provider}": the worker needs ${plan.secrets.join(' and ')} as secrets (${putting(plan.secrets)}); a deploy reads its secrets and stops without them (this dry run asks no account)`,
        ]),
  ];
}

/** The names of the worker's secrets; [] for a worker not made yet; undefined when wrangler could not say. */
export async function workerSecrets(worker: string): Promise<string[] | undefined> {
  const listed = await run('wrangler', ['secret', 'list', '--format', 'json'], { quiet: true });
  if (listed.code !== 0) {
    // A worker that does not exist yet has no secret: this is its first deploy.
    if (/not found/i.test(listed.output) && listed.output.includes(worker)) return [];
    process.stderr.write(listed.output);
    return undefined;
  }
  try {
    return wranglerJson<{ name: string }[]>(listed.output).map((s) => s.name);
  } catch {
    process.stderr.write(listed.output);
    return undefined;
  }
}

/** C47: a real deploy stops, before anything is built, on what would leave it unable to send mail. */
export async function checkMail(plan: MailPlan, worker: string): Promise<void> {
  if (plan.problems.length > 0) {
    console.error(`wrangler.toml's mail settings:\n${plan.problems.map((p) => `  - ${p.line}`).join('\n')}`);
    throw new StepFailed(
      'check the mail settings',
      'nothing was built or uploaded. Fix what is named above in wrangler.toml, then run `npm run deploy` again',
    );
  }
  if (plan.secrets.length === 0) return;
  await step(
    "check the mail provider's key",
    'nothing was built or uploaded. Run `npm run deploy` again once wrangler can read the worker’s secrets',
    async () => {
      const names = await workerSecrets(worker);
      if (names === undefined) return false;
      const missing = plan.secrets.filter((name) => !names.includes(name));
      if (missing.length === 0) {
        console.log(
          `The worker has the key of EMAIL_PROVIDER "${plan.provider}" (${plan.secrets.join(', ')}).`,
        );
        return true;
      }
      throw new StepFailed(
        "check the mail provider's key",
        `EMAIL_PROVIDER is "${plan.provider}", and the worker has no secret ${missing.join(' or ')}: nothing was built or uploaded. Put it with ${putting(missing)} (it asks for the value; on a first deploy it makes the worker), then run \`npm run deploy\` again`,
      );
    },
  );
}
