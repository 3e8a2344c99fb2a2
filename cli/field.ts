// `forms field …`: add, change or remove a project's fields (C28), and what each shows (C44).
import type { Command } from 'commander';
import { parseCapture } from '../src/fields/capture.ts';
import { whenOption } from '../src/fields/conditions.ts';
import {
  DISPLAY_MEMBERS,
  type DisplayMember,
  displayRule,
  type FieldDisplay,
  parseMultiline,
  parseStep,
  textOptions,
} from '../src/fields/display.ts';
import { parseFieldSpec, SPEC_FORM } from '../src/fields/spec.ts';
import type { FieldDef } from '../src/fields/validation.ts';
import type { Context } from './context.ts';
import { describeField } from './project.ts';

/** `--label en=Text` given again and again; `--no-label` (false) before it is forgotten. */
export const collectText = (value: string, previous: unknown) => [
  ...(Array.isArray(previous) ? (previous as string[]) : []),
  value,
];

type DisplayOptions = Partial<Record<DisplayMember, string[] | false | true>> & {
  multiline?: boolean;
  when?: string[];
  capture?: string;
  step?: string;
};

const WHAT: Record<DisplayMember, string> = {
  label: 'its label',
  help: 'its help, shown under it (several lines with \\n in a quoted text)',
  placeholder: 'its placeholder',
};

/**
 * C44: `--label`, `--help` and `--placeholder <lang>=<text>` (each once per language) and their
 * `--no-` forms. `--help` names the field's help here, as the API does, so the command's help is
 * `-h`, or `--help` given alone.
 */
function displayOptions(command: Command): Command {
  command.helpOption('-h', 'display help for command');
  for (const member of DISPLAY_MEMBERS) {
    const value = member === 'help' ? '[lang=text]' : '<lang=text>';
    command
      .option(
        `--${member} ${value}`,
        `${WHAT[member]} in a language, e.g. en=Hello (repeatable)`,
        collectText,
      )
      .option(`--no-${member}`, `no ${member}`);
  }
  command
    .option(
      '--when <condition>',
      'C45: applies only when earlier fields say so: business=true, topic=sales|support, topic!=other, phone (filled), !phone, or the JSON form (repeatable: all must hold)',
      collectText,
    )
    .option(
      '--capture <source>',
      'C45: a hidden field the page fills: utm_source, utm_medium, utm_campaign, utm_term, utm_content, referrer or query:<name>',
    )
    .option('--multiline', 'a text field that takes several lines (a text area on a page)')
    .option('--no-multiline', 'a text field on one line, however long it may be')
    .option('--step <n>', 'C46: the step of the hosted page it is on, 1–20 (1: the first)');
  command.on('option:help', (value: string | null) => {
    if (value === null) command.help();
  });
  return command;
}

/**
 * What the options say the field shows: each member given as a map (`--no-…`: an empty one, none),
 * `--multiline` or `--no-multiline` when given, and C46's `--step`.
 */
function displayOf(field: FieldDef, opts: DisplayOptions): FieldDisplay {
  const out: FieldDisplay = {};
  for (const member of DISPLAY_MEMBERS) {
    const value = opts[member];
    if (value === false) out[member] = {};
    else if (Array.isArray(value)) out[member] = textOptions(value, displayRule(member, field.name));
  }
  const multiline = parseMultiline(field.name, opts.multiline, field);
  if (multiline !== undefined) out.multiline = multiline;
  if (opts.step !== undefined) {
    // A number as written (`2`); anything else is refused by the same sentence as the API's.
    const step = parseStep(field.name, /^\d+$/.test(opts.step) ? Number(opts.step) : opts.step);
    if (step !== undefined) out.step = step;
  }
  return out;
}

export function fieldCommands(cli: Command, { withOps, print }: Context): void {
  const field = cli.command('field').description('add, change or remove fields');
  const define = (mode: 'add' | 'replace', done: (field: string, projectId: string) => string) =>
    withOps(async (ops, global, projectId: string, spec: string, opts: DisplayOptions) => {
      const given = parseFieldSpec(spec);
      // C45: a captured field holds at most CAPTURE_MAX characters (its maxLength, unless less).
      const captured = parseCapture(given.name, opts.capture, given);
      const parsed: FieldDef =
        captured === undefined ? given : { ...given, rules: captured.rules, capture: captured.capture };
      const def: FieldDef = { ...parsed, ...displayOf(parsed, opts) };
      if (opts.when !== undefined) {
        // C45: its values read as the named fields' types, which the project's fields say.
        const { fields } = await ops.showProject(projectId);
        const at = fields.findIndex((f) => f.name === parsed.name);
        const earlier = new Map(
          (at === -1 ? fields : fields.slice(0, at)).map((f) => [f.name, f.type] as const),
        );
        def.when = whenOption(opts.when, parsed.name, earlier);
      }
      const { field } = await ops.defineField(projectId, def, mode);
      print(global, { projectId, field }, () => done(describeField(field), projectId));
    });
  displayOptions(field.command('add <project> <spec>'))
    .description(`add a field, ${SPEC_FORM}, and what it shows (C44)`)
    .action(define('add', (f, p) => `Added field ${f} to ${p}.`));
  displayOptions(field.command('set <project> <spec>'))
    .description(
      "replace a field's definition (type, required, rules), keeping its place (C28); what it shows is kept unless given (C44)",
    )
    .action(define('replace', (f, p) => `Set field ${f} in ${p}.`));
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
