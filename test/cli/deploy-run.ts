// C42: `npm run deploy` run against a stand-in wrangler (and npm) on its PATH
// (test/cli/fake-wrangler), in a directory of its own with the repository's wrangler.toml: what
// test/cli/deploy.test.ts and test/cli/deploy-mail.test.ts share.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runProcess, tempDir } from './helpers.ts';

const ROOT = join(import.meta.dirname, '../..');
const FAKES = join(import.meta.dirname, 'fake-wrangler');
export const WORKER = 'edge-forms';
/** The sender wrangler.toml ships with, and a deployment's own. */
export const SHIPPED_SENDER = 'EMAIL_FROM = "forms@example.com"';
export const OWN_SENDER = 'EMAIL_FROM = "forms@mysite.test"';

type Call = {
  tool: string;
  args: string[];
  tokenInEnv: boolean;
  secretsFile?: { path: string; mode: number };
};
export type State = {
  name: string;
  bindings: Record<string, string>;
  databases: string[];
  worker: boolean;
  secrets: Record<string, string>;
  migrated: string[];
  calls: Call[];
  failOn?: string;
  loggedOut?: boolean;
  versions?: { id: string; annotations?: Record<string, string> }[];
  rolledBackTo?: string;
};

export async function deploy(
  initial: Partial<State>,
  options: {
    ci?: boolean;
    args?: string[];
    env?: Record<string, string>;
    toml?: (text: string) => string;
    /**
     * wrangler.toml as the repository ships it. Otherwise its sender is a deployment's own
     * (OWN_SENDER): C47 stops a deploy on the example's while mail is set up.
     */
    asShipped?: boolean;
    /** Files of the tree beside wrangler.toml (package.json, CHANGELOG.md, migrations). */
    files?: Record<string, string>;
  } = {},
) {
  const dir = tempDir('deploy');
  for (const [name, text] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  copyFileSync(join(ROOT, 'wrangler.toml'), join(dir, 'wrangler.toml'));
  const path = join(dir, 'wrangler.toml');
  const shipped = readFileSync(path, 'utf8');
  const own = options.asShipped === true ? shipped : shipped.replace(SHIPPED_SENDER, OWN_SENDER);
  writeFileSync(path, options.toml === undefined ? own : options.toml(own));
  const statePath = join(dir, 'fake-state.json');
  const state: State = {
    name: WORKER,
    bindings: { DB: 'edge-forms', DB_EU: 'edge-forms-eu' },
    databases: [],
    worker: false,
    secrets: {},
    migrated: [],
    calls: [],
    ...initial,
  };
  writeFileSync(statePath, JSON.stringify(state));
  const result = await runProcess(
    process.execPath,
    [join(ROOT, 'scripts/deploy.ts'), ...(options.args ?? [])],
    {
      cwd: dir,
      env: {
        PATH: `${FAKES}:${process.env.PATH}`,
        FAKE_STATE: statePath,
        CI: options.ci ? 'true' : '',
        CLOUDFLARE_API_TOKEN: 'a-cloudflare-token-of-the-test',
        ADMIN_TOKEN: undefined,
        ...options.env,
      },
    },
  );
  const after = JSON.parse(readFileSync(statePath, 'utf8')) as State;
  const calls = after.calls.map((c) => `${c.tool} ${c.args.join(' ')}`);
  return { dir, result, state: after, calls };
}
