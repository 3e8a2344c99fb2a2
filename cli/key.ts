// `forms key …`: a project's API keys (C7, C23): made and printed once, listed, revoked by prefix.
import type { Command } from 'commander';
import { type Context, table } from './context.ts';
import { keyState } from './project.ts';

export function keyCommands(cli: Command, { withOps, print }: Context): void {
  const key = cli.command('key').description('create, revoke and list API keys');
  key
    .command('create <project>')
    .description(
      'a further key (printed once): publishable, for web pages, or --secret, for servers (submit, read, erase)',
    )
    .option('--secret', 'a secret key, for servers: it can also read and erase submissions')
    .action(
      withOps(async (ops, global, projectId: string, opts: { secret?: boolean }) => {
        const kind = opts.secret ? 'secret' : 'publishable';
        const apiKey = await ops.createKey(projectId, kind);
        print(global, { projectId, apiKey, kind }, () =>
          [
            `New ${kind} API key for ${projectId} (shown once): ${apiKey}`,
            ...(kind === 'secret' ? ['Keep it on your server: never put a secret key in a web page.'] : []),
          ].join('\n'),
        );
      }),
    );
  key
    .command('revoke <project> <prefix>')
    .description('revoke a key, by the prefix that `key list` shows (never the whole key)')
    .action(
      withOps(async (ops, global, projectId: string, given: string) => {
        const revoked = await ops.revokeKey(projectId, given);
        print(global, { projectId, revoked }, () => `Revoked key ${revoked}… of ${projectId}.`);
      }),
    );
  key
    .command('list <project>')
    .description('display prefixes, kinds, created and last used times, and states')
    .action(
      withOps(async (ops, global, projectId: string) => {
        const keys = await ops.listKeys(projectId);
        print(global, { projectId, keys }, () =>
          table([
            ['PREFIX', 'KIND', 'CREATED', 'LAST USED', 'STATE'],
            ...keys.map((k) => [`${k.prefix}…`, k.kind, k.createdAt, k.lastUsedAt ?? 'never', keyState(k)]),
          ]),
        );
      }),
    );
}
