// `forms page …`: a project's hosted page (C44): shown, changed (on or off, its languages, title,
// introduction, thanks, colour, theme and Turnstile site key) and its logo set or removed, through the operations the
// management API calls too (C32).
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { type Command, Option } from 'commander';
import { PAGE_THEMES } from '../schema/tables.ts';
import { type TextMap, textOptions } from '../src/fields/display.ts';
import { PAGE_TEXTS, type PageInput } from '../src/ops/hosted-page.ts';
import type { PageView, ProjectView } from '../src/ops/project-view.ts';
import { type Context, UsageError } from './context.ts';
import { collectText } from './field.ts';

/** The type a logo's file says it is, by its extension; the operation checks its bytes agree. */
const TYPE_OF: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
};

type Texts = 'title' | 'intro' | 'thanks';
const TEXTS = Object.keys(PAGE_TEXTS) as Texts[];

const textsIn = (map: TextMap) =>
  Object.keys(map).length === 0
    ? '(none)'
    : Object.entries(map)
        .map(([tag, text]) => `${tag} ${JSON.stringify(text)}`)
        .join(', ');

function pageText(projectId: string, page: PageView, partials: ProjectView['partials']): string {
  const { logo } = page;
  return [
    `Hosted page of ${projectId}: ${page.enabled ? 'on' : `off (turn it on: forms page set ${projectId} --on)`}`,
    `Languages: ${page.languages.join(', ')} (the first is its default)`,
    `Title: ${textsIn(page.title)}`,
    `Intro: ${textsIn(page.intro)}`,
    `Thanks: ${textsIn(page.thanks)}`,
    `Accent: ${page.accent}`,
    `Theme: ${page.theme}`,
    `Logo: ${logo === null ? '(none)' : `${logo.type}, ${logo.size} bytes, SHA-256 ${logo.sha256}`}`,
    `Turnstile site key: ${page.turnstileSiteKey ?? '(none)'}`,
    // C46: each step's title, in order.
    ...(page.steps.length === 0 ? [] : page.steps.map((step, i) => `Step ${i + 1}: ${textsIn(step.title)}`)),
    // C46: whether a page in steps keeps what a visitor typed.
    `Drafts (partial submissions): ${partials.enabled ? `kept ${partials.keepDays} days` : 'off'}`,
  ].join('\n');
}

type SetOptions = Partial<Record<Texts, string[] | false>> & {
  on?: boolean;
  off?: boolean;
  languages?: string;
  accent?: string;
  theme?: string;
  /** `--no-turnstile-site-key` gives false. */
  turnstileSiteKey?: string | false;
  /** C46: `--step <n>:<lang>=<text>`, repeatable; `--no-steps` gives false. */
  step?: string[];
  steps?: false;
  /** C46: `--partials <days>`; `--no-partials` gives false. */
  partials?: string | false;
};

/**
 * C46: the steps' titles as `--step 1:en=About you --step 1:de=Über Sie --step 2:en=Your message`:
 * each number's texts in its languages, numbers from 1 without a gap.
 */
function stepsOf(given: readonly string[]): { title: TextMap }[] {
  const byStep = new Map<number, string[]>();
  for (const option of given) {
    const match = /^(\d{1,2}):(.*)$/s.exec(option);
    if (match === null)
      throw new UsageError(`--step is <n>:<lang>=<text>, e.g. 1:en=About you: not '${option}'`);
    const n = Number(match[1]);
    byStep.set(n, [...(byStep.get(n) ?? []), match[2] ?? '']);
  }
  const last = Math.max(...byStep.keys());
  return Array.from({ length: last }, (_, i) => {
    const texts = byStep.get(i + 1);
    if (texts === undefined)
      throw new UsageError(`--step ${i + 1}:<lang>=<text> is missing: steps are numbered from 1`);
    return { title: textOptions(texts, { what: "step's title", max: 200, lines: false }) };
  });
}

/** What `page set`'s options change: each text map parsed as the API's JSON is (C44). */
function changesOf(opts: SetOptions): PageInput {
  const page: PageInput = {};
  if (opts.on || opts.off) page.enabled = opts.on === true;
  if (opts.languages !== undefined) page.languages = opts.languages.split(',').map((t) => t.trim());
  for (const member of TEXTS) {
    const value = opts[member];
    if (value === false) page[member] = null;
    else if (value !== undefined) page[member] = textOptions(value, PAGE_TEXTS[member]);
  }
  if (opts.accent !== undefined) page.accent = opts.accent;
  if (opts.theme !== undefined) page.theme = opts.theme;
  if (opts.turnstileSiteKey !== undefined)
    page.turnstileSiteKey = opts.turnstileSiteKey === false ? null : opts.turnstileSiteKey;
  if (opts.steps === false) page.steps = null;
  else if (opts.step !== undefined) page.steps = stepsOf(opts.step);
  return page;
}

export function pageCommands(cli: Command, { withOps, print }: Context): void {
  const show = (global: Parameters<Context['print']>[0], p: ProjectView) =>
    print(global, { projectId: p.id, page: p.page, partials: p.partials }, () =>
      pageText(p.id, p.page, p.partials),
    );
  const page = cli
    .command('page')
    .description("a project's hosted page: on or off, its languages, texts, colours and logo (C44)");
  page
    .command('show <project>')
    .description('whether it is on, its languages, title, intro, thanks, accent, theme and logo')
    .action(
      withOps(async (ops, global, projectId: string) => show(global, await ops.showProject(projectId))),
    );

  const set = page
    .command('set <project>')
    .description('change the settings given; the others stay')
    .addOption(new Option('--on', 'serve the page').conflicts('off'))
    .addOption(new Option('--off', 'serve it no more'))
    .option('--languages <tags>', 'the languages it speaks, comma-separated, the first its default: en,de');
  for (const member of TEXTS) {
    set
      .option(
        `--${member} <lang=text>`,
        `its ${member} in a language, e.g. en=Hello (repeatable)`,
        collectText,
      )
      .option(`--no-${member}`, `no ${member}`);
  }
  set
    .option('--accent <colour>', "its colour, '#rrggbb' (quoted: # begins a comment in the shell)")
    .addOption(
      new Option('--theme <theme>', 'light or dark, or auto: as the visitor’s system prefers').choices(
        PAGE_THEMES,
      ),
    )
    .option(
      '--turnstile-site-key <key>',
      "the site key of the project's Turnstile widget (public), shown when the project checks Turnstile",
    )
    .option('--no-turnstile-site-key', 'no site key')
    .option(
      '--step <n:lang=text>',
      "C46: a step's title in a language, e.g. 1:en=About you (repeatable; replaces the steps)",
      collectText,
    )
    .option('--no-steps', 'no steps’ titles')
    .option(
      '--partials <days>',
      'C46: a page in steps keeps what a visitor typed as a draft for so many days (1–90), to continue later',
    )
    .option('--no-partials', 'keep no drafts')
    .action(
      withOps(async (ops, global, projectId: string, opts: SetOptions) => {
        const changes = changesOf(opts);
        const partials =
          opts.partials === undefined
            ? undefined
            : opts.partials === false
              ? { enabled: false }
              : { enabled: true, keepDays: /^\d+$/.test(opts.partials) ? Number(opts.partials) : Number.NaN };
        if (Object.keys(changes).length === 0 && partials === undefined) {
          throw new UsageError(
            'Nothing to change: give --on, --off, --languages, --title, --intro, --thanks, --accent, --theme, --turnstile-site-key, --step or --partials',
          );
        }
        show(
          global,
          await ops.updateProject(projectId, {
            ...(Object.keys(changes).length === 0 ? {} : { page: changes }),
            ...(partials === undefined ? {} : { partials }),
          }),
        );
      }),
    );

  page
    .command('logo <project> [file]')
    .description(
      'set its logo from a PNG, JPEG, WebP or GIF file (at most 256 KiB; never SVG), or --remove it',
    )
    .option('--remove', 'remove the logo')
    .action(
      withOps(
        async (ops, global, projectId: string, file: string | undefined, opts: { remove?: boolean }) => {
          if ((file === undefined) === (opts.remove !== true)) {
            throw new UsageError('Give the logo’s file, or --remove (not both)');
          }
          if (file === undefined) {
            const p = await ops.removeLogo(projectId);
            print(global, { projectId: p.id, logo: null }, () => `Removed the logo of ${p.id}.`);
            return;
          }
          const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
            throw new UsageError(`Cannot read the logo '${file}': ${error.code ?? error.message}`);
          });
          const type = TYPE_OF[extname(file).toLowerCase()] ?? 'application/octet-stream';
          const p = await ops.setLogo(projectId, new Uint8Array(bytes), type);
          const { logo } = p.page;
          print(global, { projectId: p.id, logo }, () =>
            logo === null
              ? ''
              : `Set the logo of ${p.id}: ${logo.type}, ${logo.size} bytes, SHA-256 ${logo.sha256}.`,
          );
        },
      ),
    );
}
