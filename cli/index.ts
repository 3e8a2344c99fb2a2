#!/usr/bin/env node
// `npm run forms -- <command>`: projects, fields, origins, keys, submissions, webhooks, email
// notifications and deliveries, without writing SQL (C19). Each command group is a file of its own;
// each command calls the one operation (src/ops) that the management API calls too.
import { pathToFileURL } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { Conflict, InvalidInput, NotFound, StorageError } from '../src/lib/faults.ts';
import { safeText, shown } from '../src/lib/printable.ts';
import { openDatabase } from '../toolkit/database.ts';
import { confirmCommands } from './confirm.ts';
import { context, type Io, line, type Open, UsageError } from './context.ts';
import { deliveriesCommands } from './deliveries.ts';
import { fieldCommands } from './field.ts';
import { inboxCommands } from './inbox.ts';
import { integrationCommands } from './integration.ts';
import { keyCommands } from './key.ts';
import { limitsCommands } from './limits.ts';
import { notifyCommands } from './notify.ts';
import { originCommands } from './origin.ts';
import { pageCommands } from './page.ts';
import { projectCommands } from './project.ts';
import { RemoteRefusal } from './remote.ts';
import { spamCommands } from './spam.ts';
import { submissionsCommands } from './submissions.ts';
import { typesCommands } from './types.ts';
import { webhookCommands } from './webhook.ts';

export type { Io } from './context.ts';

export function program(io: Io, openDb: Open = openDatabase): Command {
  const cli = new Command('forms')
    .description(
      'Manage the projects, fields, hosted pages, origins, API keys, webhooks and spam filters of the form endpoint; read, mark, export or erase submissions. On the local database (default), the deployed one (--remote), or a deployed worker (--url).',
    )
    .addOption(new Option('--local', 'use the local database of `npm run dev` (default)').conflicts('remote'))
    .addOption(new Option('--remote', 'use the deployed D1 database of wrangler.toml'))
    .addOption(
      new Option(
        '--url <worker>',
        "use a deployed worker's management API (the token in FORMS_ADMIN_TOKEN)",
      ).conflicts(['remote', 'local']),
    )
    .option('--json', 'print one JSON document on standard output and nothing else')
    .addOption(
      new Option(
        '--persist-to <dir>',
        'local state directory, as for `wrangler dev --persist-to`',
      ).hideHelp(),
    )
    .showHelpAfterError(false)
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .exitOverride();
  const ctx = context(io, openDb);
  for (const group of [
    projectCommands,
    typesCommands,
    fieldCommands,
    pageCommands,
    limitsCommands,
    originCommands,
    keyCommands,
    submissionsCommands,
    inboxCommands,
    webhookCommands,
    integrationCommands,
    notifyCommands,
    confirmCommands,
    spamCommands,
    deliveriesCommands,
  ]) {
    group(cli, ctx);
  }
  return cli;
}

/** Runs one command line; returns the exit status (0 done, 2 bad input, 1 anything else). */
export async function main(argv: string[], io: Io = process, openDb: Open = openDatabase): Promise<number> {
  try {
    await program(io, openDb).parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander has printed its own message (usage errors) or the help (exit code 0).
      return err.exitCode === 0 ? 0 : 2;
    }
    if (err instanceof UsageError || err instanceof InvalidInput || err instanceof Conflict) {
      line(io.stderr, safeText(`forms: ${err.message}`));
      return 2;
    }
    if (err instanceof NotFound) {
      line(io.stderr, safeText(`forms: ${err.message}${err.hint === undefined ? '' : ` (${err.hint})`}`));
      return 2;
    }
    if (err instanceof RemoteRefusal) {
      line(io.stderr, shown(`forms: ${err.message}`));
      return 1;
    }
    const detail =
      err instanceof StorageError && err.cause instanceof Error ? err.cause.message : String(err);
    line(
      io.stderr,
      shown(`forms: ${err instanceof StorageError ? 'database error' : 'error'}: ${detail.split('\n')[0]}`),
    );
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2));
}
