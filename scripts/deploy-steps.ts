// The steps `npm run deploy` is made of (C42): a command run with its output shown and kept, a step
// that stops the rest when it fails and says what to do next; the deploy (scripts/deploy.ts) and
// going back (scripts/rollback.ts) are made of them. Every command is looked up on the PATH, so the
// tests put a stand-in wrangler and npm there.
import { spawn } from 'node:child_process';
import { wranglerEnv } from '../toolkit/database.ts';

/** A step of the deploy that failed: which, and what the user does next. */
export class StepFailed extends Error {
  override name = 'StepFailed';
  readonly step: string;
  readonly next: string;
  constructor(step: string, next: string) {
    super(`${step} failed`);
    this.step = step;
    this.next = next;
  }
}

export type Ran = { code: number; output: string };

/**
 * Runs a command, its output shown as it comes (and kept, for the few answers read from it). Its
 * standard input is closed: wrangler then asks nothing and takes its defaults (no prompt to answer
 * in a deploy).
 */
export function run(command: string, args: string[], options: { quiet?: boolean } = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      // Never the operator token: the one uploaded must be the file's, the one printed.
      env: wranglerEnv(),
    });
    let output = '';
    const keep = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
      output += String(chunk);
      if (!options.quiet) stream.write(chunk);
    };
    child.stdout.on('data', keep(process.stdout));
    child.stderr.on('data', keep(process.stderr));
    child.on('error', (error) => resolve({ code: -1, output: `${output}${error.message}\n` }));
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

export const AUTH =
  'log in with `npx wrangler login`, or set CLOUDFLARE_API_TOKEN (a token that may edit Workers, D1, R2 and Queues) and CLOUDFLARE_ACCOUNT_ID';

export async function step(name: string, next: string, action: () => Promise<boolean>): Promise<void> {
  console.log(`\n▸ ${name}`);
  if (!(await action())) throw new StepFailed(name, next);
}
