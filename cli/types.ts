// `forms types <project>`: the project's fields as one TypeScript module for a site's own code (C43):
// the type of a submission, its JSON Schema and a Standard Schema validator that judges as the
// worker does. The module is made here from the project as `project show` reads it (on a database,
// or through the management API with --url), so it is the same module the dashboard offers.
import type { Command } from 'commander';
import type { UnknownFieldPolicy } from '../src/fields/catalogue.ts';
import { generateModule } from '../src/fields/generate.ts';
import type { Context } from './context.ts';

export function typesCommands(cli: Command, { withOps, print }: Context): void {
  cli
    .command('types <project>')
    .description(
      "the project's fields as a TypeScript module: its Submission type, JSON Schema and a Standard Schema validator that judges as the worker does (C43)",
    )
    .action(
      withOps(async (ops, global, projectId: string) => {
        const p = await ops.showProject(projectId);
        const module = generateModule(p.fields, p.unknownFields as UnknownFieldPolicy, {
          project: p.id,
          honeypot: p.honeypot,
          // C44: labels and help in the project's default language.
          language: p.page.languages[0],
        });
        print(global, { projectId: p.id, module }, () => module.trimEnd());
      }),
    );
}
