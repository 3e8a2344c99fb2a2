// `forms spam …`: a project's spam filter (C39): what it does with spam, the threshold, the allow
// and block lists, the form's signals (the widget required, a proof of work, the expected countries
// and languages), and how much it learnt from its owner's marks. Marks themselves are
// `forms inbox mark … --as spam|not-spam`.
import { type Command, Option } from 'commander';
import type { ProjectView } from '../src/ops/project-view.ts';
import {
  DEFAULT_THRESHOLD,
  LIST_KINDS,
  type ListEntry,
  MAX_THRESHOLD,
  MIN_THRESHOLD,
  SPAM_MODES,
  SPAM_SHARING,
  unsureFrom,
} from '../src/spam/settings.ts';
import { type Context, UsageError } from './context.ts';

type Filter = ProjectView['spamFilter'];

const MODE_TEXT: Record<Filter['mode'], string> = {
  off: 'off: nothing is judged (the honeypot still holds)',
  mark: 'mark: spam is marked and still delivered (never confirmed)',
  hold: 'hold: spam is moved to spam and nothing of it is delivered',
};

const SHARING_TEXT: Record<Filter['sharing'], string> = {
  both: "both: its marks teach the deployment's counts and campaigns, and it learns from theirs",
  take: "take: it learns from the deployment's counts and campaigns, and teaches them nothing",
  none: 'none: it learns from its own marks alone',
};

function listText(entries: readonly ListEntry[]): string[] {
  return entries.length === 0 ? ['  (empty)'] : entries.map((e) => `  ${e.kind} ${e.value}`);
}

function filterText(projectId: string, f: Filter): string {
  return [
    `Spam filter of ${projectId}: ${MODE_TEXT[f.mode]}`,
    `Threshold: ${f.threshold} (spam from this probability on; unsure, to the inbox, from ${unsureFrom(f.threshold)} up to it)`,
    `Sharing: ${SHARING_TEXT[f.sharing]}`,
    `Widget required: ${f.requireWidget ? 'yes (strict): a page post without its token, or faster than a person, is spam' : 'no: a missing token or a fast fill is one signal among others'}`,
    `Proof of work: ${f.proofOfWork ? 'required: a post without one is refused (400)' : 'off'}`,
    `Expected countries: ${f.countries.length === 0 ? 'any' : f.countries.join(', ')}`,
    `Expected languages: ${f.languages.length === 0 ? 'any' : f.languages.join(', ')}`,
    `Learnt from your marks: ${f.learned.spam} spam, ${f.learned.ham} not spam`,
    'Always allowed:',
    ...listText(f.allow),
    'Always blocked:',
    ...listText(f.block),
  ].join('\n');
}

const ON_OFF = ['on', 'off'];
/** A comma-separated list; empty: none (any country, any language). */
const codeList = (text: string) =>
  text
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');

type SetOptions = {
  mode?: Filter['mode'];
  threshold?: number;
  sharing?: Filter['sharing'];
  requireWidget?: 'on' | 'off';
  proofOfWork?: 'on' | 'off';
  countries?: string[];
  languages?: string[];
};

const kindArgument = (text: string) => {
  if (!(LIST_KINDS as readonly string[]).includes(text)) {
    throw new UsageError(`A list entry is an ${LIST_KINDS.join(', ')}: not '${text}'`);
  }
  return text;
};

export function spamCommands(cli: Command, { withOps, print }: Context): void {
  // Every command prints the filter as it is after it: what `spam show` prints.
  const show = (global: Parameters<Context['print']>[0], p: ProjectView) =>
    print(global, { projectId: p.id, spamFilter: p.spamFilter }, () => filterText(p.id, p.spamFilter));
  const spam = cli
    .command('spam')
    .description("a project's spam filter: mode, threshold, allow and block lists");
  spam
    .command('show <project>')
    .description('the mode, the threshold, the lists, and how many marks it learnt')
    .action(
      withOps(async (ops, global, projectId: string) => {
        const p = await ops.showProject(projectId);
        show(global, p);
      }),
    );
  spam
    .command('set <project>')
    .description(
      'what it does with spam, the probability from which a submission is spam, and what it shares',
    )
    .addOption(new Option('--mode <mode>', 'off, mark, or hold (the default)').choices(SPAM_MODES))
    .option(
      '--threshold <score>',
      `from ${MIN_THRESHOLD} to ${MAX_THRESHOLD} (${DEFAULT_THRESHOLD} unless told): higher holds less`,
      Number,
    )
    .addOption(
      new Option(
        '--sharing <how>',
        "with the deployment's other projects: both (the default), take, none",
      ).choices(SPAM_SHARING),
    )
    .addOption(
      new Option(
        '--require-widget <on|off>',
        'strict: a page post without the widget’s token, or faster than a person, is spam',
      ).choices(ON_OFF),
    )
    .addOption(
      new Option('--proof-of-work <on|off>', 'refuse (400) a post without a proof of work').choices(ON_OFF),
    )
    .option('--countries <codes>', 'expected countries, comma-separated (DE,AT); "" for any', codeList)
    .option('--languages <tags>', 'expected languages, comma-separated (de,en); "" for any', codeList)
    .action(
      withOps(async (ops, global, projectId: string, opts: SetOptions) => {
        if (Object.values(opts).every((o) => o === undefined)) {
          throw new UsageError(
            'Give --mode, --threshold, --sharing, --require-widget, --proof-of-work, --countries, --languages, or any of them',
          );
        }
        const onOff = (o: 'on' | 'off' | undefined) => (o === undefined ? undefined : o === 'on');
        const p = await ops.updateProject(projectId, {
          spamFilter: {
            mode: opts.mode,
            threshold: opts.threshold,
            sharing: opts.sharing,
            requireWidget: onOff(opts.requireWidget),
            proofOfWork: onOff(opts.proofOfWork),
            countries: opts.countries,
            languages: opts.languages,
          },
        });
        show(global, p);
      }),
    );
  for (const [name, list, says] of [
    ['allow', 'allow', 'always ham'],
    ['block', 'block', 'always spam'],
  ] as const) {
    spam
      .command(`${name} <project> <kind> <value>`)
      .description(`adds an entry to the ${list} list (${says}): an address, a domain, or a phrase`)
      .action(
        withOps(async (ops, global, projectId: string, kind: string, value: string) => {
          const before = (await ops.showProject(projectId)).spamFilter[list];
          const entry = { kind: kindArgument(kind), value };
          const p = await ops.updateProject(projectId, { spamFilter: { [list]: [...before, entry] } });
          show(global, p);
        }),
      );
  }
  spam
    .command('unlist <project> <list> <kind> <value>')
    .description('removes an entry from the allow or the block list')
    .action(
      withOps(async (ops, global, projectId: string, list: string, kind: string, value: string) => {
        if (list !== 'allow' && list !== 'block')
          throw new UsageError(`The list is allow or block: not '${list}'`);
        const before = (await ops.showProject(projectId)).spamFilter[list];
        const wanted = `${kindArgument(kind)} ${value.trim().toLowerCase()}`;
        const after = before.filter((e) => `${e.kind} ${e.value.toLowerCase()}` !== wanted);
        if (after.length === before.length) {
          throw new UsageError(`The ${list} list has no ${kind} '${value}'`);
        }
        const p = await ops.updateProject(projectId, { spamFilter: { [list]: after } });
        show(global, p);
      }),
    );
}
