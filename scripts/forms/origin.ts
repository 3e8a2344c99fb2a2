// `forms origin …`: the origins a project's pages may submit from (C15).
import type { Command } from 'commander';
import { addOrigin, removeOrigin } from '../../src/manage/fields.ts';
import type { Context } from './context.ts';

export function originCommands(cli: Command, { withManager, print }: Context): void {
  const origin = cli.command('origin').description('add or remove allowed origins');
  origin
    .command('add <project> <origin>')
    .description('allow an origin, scheme://host[:port]; once any is listed, others get 403')
    .action(
      withManager(async (m, global, projectId: string, text: string) => {
        const value = await addOrigin(m, projectId, text);
        print(global, { projectId, origin: value }, () => `Allowed origin ${value} for ${projectId}.`);
      }),
    );
  origin
    .command('remove <project> <origin>')
    .description('remove an allowed origin')
    .action(
      withManager(async (m, global, projectId: string, text: string) => {
        const value = await removeOrigin(m, projectId, text);
        print(global, { projectId, removed: value }, () => `Removed origin ${value} from ${projectId}.`);
      }),
    );
}
