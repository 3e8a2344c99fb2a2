// `forms origin …`: the origins a project's pages may submit from (C15).
import type { Command } from 'commander';
import type { Context } from './context.ts';

export function originCommands(cli: Command, { withOps, print }: Context): void {
  const origin = cli.command('origin').description('add or remove allowed origins');
  origin
    .command('add <project> <origin>')
    .description('allow an origin, scheme://host[:port]; once any is listed, others get 403')
    .action(
      withOps(async (ops, global, projectId: string, text: string) => {
        const value = await ops.addOrigin(projectId, text);
        print(global, { projectId, origin: value }, () => `Allowed origin ${value} for ${projectId}.`);
      }),
    );
  origin
    .command('remove <project> <origin>')
    .description('remove an allowed origin')
    .action(
      withOps(async (ops, global, projectId: string, text: string) => {
        const value = await ops.removeOrigin(projectId, text);
        print(global, { projectId, removed: value }, () => `Removed origin ${value} from ${projectId}.`);
      }),
    );
}
