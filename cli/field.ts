// `forms field …`: add, change or remove a project's fields (C28).
import type { Command } from 'commander';
import { parseFieldSpec, SPEC_FORM } from '../src/fields/spec.ts';
import type { Context } from './context.ts';
import { describeField } from './project.ts';

export function fieldCommands(cli: Command, { withOps, print }: Context): void {
  const field = cli.command('field').description('add, change or remove fields');
  field
    .command('add <project> <spec>')
    .description(`add a field, ${SPEC_FORM}`)
    .action(
      withOps(async (ops, global, projectId: string, spec: string) => {
        const def = parseFieldSpec(spec);
        await ops.defineField(projectId, def, 'add');
        print(global, { projectId, field: def }, () => `Added field ${describeField(def)} to ${projectId}.`);
      }),
    );
  field
    .command('set <project> <spec>')
    .description("replace a field's definition (type, required, rules), keeping its place (C28)")
    .action(
      withOps(async (ops, global, projectId: string, spec: string) => {
        const def = parseFieldSpec(spec);
        await ops.defineField(projectId, def, 'replace');
        print(global, { projectId, field: def }, () => `Set field ${describeField(def)} in ${projectId}.`);
      }),
    );
  field
    .command('remove <project> <name>')
    .description('remove a field (stored submissions keep their values)')
    .action(
      withOps(async (ops, global, projectId: string, name: string) => {
        await ops.removeField(projectId, name);
        print(global, { projectId, removed: name }, () => `Removed field ${name} from ${projectId}.`);
      }),
    );
}
