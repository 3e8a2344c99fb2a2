// C44: a project's hosted page: its settings (on or off, its languages, title, introduction and
// thanks, its colour and theme), changed member by member, and its logo, kept in the bucket of the
// project's place. The tool and the management API call these same operations (C32); each change
// is in the audit log, never the logo's bytes.
import { PAGE_THEMES, type PageTheme } from '../../schema/tables.ts';
import {
  MAX_STEPS,
  parseLanguageTag,
  parseTextMap,
  type TextMap,
  type TextRule,
  textMapColumn,
} from '../fields/display.ts';
import { checkLogo, deleteLogo, logoKey, putLogo } from '../files/logo.ts';
import { InvalidInput, NotFound, UnavailableError } from '../lib/faults.ts';
import { DEFAULT_PLACE } from '../store/places.ts';
import { type ProjectSettings, updateProjectSettings } from '../store/projects.ts';
import { type Manager, recordChange, requireProject } from './context.ts';
import { type ProjectView, projectView } from './project-view.ts';

/** The page's texts, each a map of language tag → text, with its limits (in characters). */
export const PAGE_TEXTS = {
  title: { what: "page's title", max: 200, lines: false },
  intro: { what: "page's intro", max: 2000, lines: true },
  thanks: { what: "page's thanks", max: 1000, lines: true },
} as const satisfies Record<string, TextRule>;
type PageText = keyof typeof PAGE_TEXTS;

/** How many languages a page may speak. */
export const MAX_PAGE_LANGUAGES = 10;
export const DEFAULT_ACCENT = '#1f5fbf';
const ACCENT = /^#[0-9a-f]{6}$/i;

/**
 * The page's settings as the API's `{"page": {…}}` and `forms page set` give them: each member
 * given replaces that member; those not given stay. A text map's `null` or `{}` is none.
 */
export type PageInput = {
  enabled?: boolean | undefined;
  languages?: readonly string[] | undefined;
  title?: TextMap | null | undefined;
  intro?: TextMap | null | undefined;
  thanks?: TextMap | null | undefined;
  accent?: string | undefined;
  theme?: string | undefined;
  turnstileSiteKey?: string | null | undefined;
  steps?: readonly unknown[] | null | undefined;
};
const MEMBERS = [
  'enabled',
  'languages',
  'title',
  'intro',
  'thanks',
  'accent',
  'theme',
  'turnstileSiteKey',
  'steps',
] as const;
// Cloudflare's site keys (`0x4AAAAAAA…`, the test keys `1x00000000000000000000AA`): letters, digits,
// `_` and `-`.
const SITE_KEY = /^[\w-]{10,100}$/;

const invalid = (message: string) => new InvalidInput(message);

/** C44: 1 to MAX_PAGE_LANGUAGES tags, canonical, each once; the first is the page's default. */
function parseLanguages(input: unknown): string[] {
  if (!Array.isArray(input) || input.length === 0 || input.length > MAX_PAGE_LANGUAGES) {
    throw invalid(
      `The page's languages are 1 to ${MAX_PAGE_LANGUAGES} language tags, the first its default, e.g. ["en", "de"]`,
    );
  }
  const out: string[] = [];
  for (const given of input) {
    const tag = parseLanguageTag(given, "in the page's languages");
    if (out.includes(tag)) throw invalid(`The language '${tag}' is given twice in the page's languages`);
    out.push(tag);
  }
  return out;
}

/** C46: a step's title, as the page's other texts are checked. */
const STEP_TITLE = { what: "step's title", max: 200, lines: false } as const satisfies TextRule;

/**
 * C46: the page's steps: 1 to MAX_STEPS `{"title": {lang: text}}`, in order; `null` or `[]`: none
 * (the fields' steps still page it, each titled by its number).
 */
function parseSteps(input: unknown): { title: TextMap }[] {
  if (input === null) return [];
  if (!Array.isArray(input) || input.length > MAX_STEPS) {
    throw invalid(
      `The page's steps are at most ${MAX_STEPS}, each {"title": {"en": "About you"}}, in order: a field's step is its number`,
    );
  }
  return input.map((step, i) => {
    if (typeof step !== 'object' || step === null || Array.isArray(step)) {
      throw invalid(`Step ${i + 1} of the page is {"title": {"en": "…"}}`);
    }
    const { title, ...extra } = step as Record<string, unknown>;
    const unknown = Object.keys(extra)[0];
    if (unknown !== undefined)
      throw invalid(`Unknown member '${unknown}' of step ${i + 1} of the page: use title`);
    return { title: title === undefined ? {} : parseTextMap(title, STEP_TITLE) };
  });
}

/**
 * C44: the columns of the page's members given, each checked, and what the audit log records of
 * them (the members as the page's view shows them).
 */
export function parsePage(input: unknown): { columns: ProjectSettings; detail: Record<string, unknown> } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalid(`The page is an object of the settings to change, e.g. {"enabled": true}`);
  }
  const given = input as Record<string, unknown>;
  for (const member of Object.keys(given)) {
    if (member === 'logo') {
      throw invalid(
        "The page's logo is set by itself: PUT /api/v1/projects/<id>/page/logo, or forms page logo",
      );
    }
    if (!(MEMBERS as readonly string[]).includes(member)) {
      throw invalid(`Unknown member '${member}' of the page: use ${MEMBERS.join(', ')}`);
    }
  }
  const columns: ProjectSettings = {};
  const detail: Record<string, unknown> = {};
  const { enabled, languages, accent, theme, turnstileSiteKey, steps } = given;
  if (steps !== undefined) {
    const parsed = parseSteps(steps);
    detail.steps = parsed;
    columns.pageSteps = parsed.length === 0 ? null : JSON.stringify(parsed);
  }
  if (enabled !== undefined) {
    if (typeof enabled !== 'boolean') throw invalid("The page's enabled is true or false");
    columns.pageEnabled = detail.enabled = enabled;
  }
  if (languages !== undefined) {
    detail.languages = parseLanguages(languages);
    columns.pageLanguages = JSON.stringify(detail.languages);
  }
  for (const member of Object.keys(PAGE_TEXTS) as PageText[]) {
    if (given[member] === undefined) continue;
    const map = parseTextMap(given[member], PAGE_TEXTS[member]);
    detail[member] = map;
    columns[member === 'title' ? 'pageTitle' : member === 'intro' ? 'pageIntro' : 'pageThanks'] =
      textMapColumn(map);
  }
  if (accent !== undefined) {
    if (typeof accent !== 'string' || !ACCENT.test(accent)) {
      throw invalid(
        `The page's accent is a colour as #rrggbb, e.g. ${DEFAULT_ACCENT}: not '${String(accent)}'`,
      );
    }
    columns.pageAccent = detail.accent = accent.toLowerCase();
  }
  if (theme !== undefined) {
    if (!(PAGE_THEMES as readonly unknown[]).includes(theme)) {
      throw invalid(`The page's theme is ${PAGE_THEMES.join(', ')}: not '${String(theme)}'`);
    }
    columns.pageTheme = detail.theme = theme as PageTheme;
  }
  if (turnstileSiteKey !== undefined) {
    if (
      turnstileSiteKey !== null &&
      (typeof turnstileSiteKey !== 'string' || !SITE_KEY.test(turnstileSiteKey))
    ) {
      throw invalid(
        "Invalid Turnstile site key: copy the site key (not the secret) from the Turnstile widget's settings, e.g. 0x4AAAAAAA…",
      );
    }
    columns.pageTurnstileSiteKey = detail.turnstileSiteKey = turnstileSiteKey;
  }
  return { columns, detail };
}

/**
 * C22, C44: a page that is on while its project checks Turnstile (its secret set) shows Turnstile's
 * widget, so it needs the widget's site key: without one, no post from the page could pass. And
 * the key is never the secret, which the page would publish. Checked on the settings as they would
 * be after a change of the page's switch, its key or the secret, before anything is written.
 */
export function requireSiteKey(
  after: Pick<ProjectSettings, 'pageEnabled' | 'turnstileSecret' | 'pageTurnstileSiteKey'>,
): void {
  const key = after.pageTurnstileSiteKey;
  // A page shows its site key to everyone: the secret given for it would be published.
  if (key != null && key === after.turnstileSecret) {
    throw invalid(
      "That is the Turnstile widget's secret, which a page would show to everyone: give the page its site key, and keep the secret the project's alone",
    );
  }
  if (after.pageEnabled && after.turnstileSecret != null && key == null) {
    throw invalid(
      "While its project checks Turnstile, a page that is on shows Turnstile's widget, which needs its site key: set the page's turnstileSiteKey too (forms page set <project> --turnstile-site-key <key>)",
    );
  }
}

/** The bucket of the project's place, for its logo (C41: never another place's). */
function bucketOf(m: Manager) {
  if (m.files === undefined) {
    throw invalid(
      "A page's logo is kept in the bucket of its project's place: set it through the worker (--url), or on the local database",
    );
  }
  const place = m.place ?? DEFAULT_PLACE;
  const bucket = m.files(place);
  if (bucket === undefined) throw new UnavailableError('r2', new Error(`no bucket for the place '${place}'`));
  return bucket;
}

/** R2 failing or away is a dependency failing: 503, try again (C18). */
async function r2<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (cause) {
    throw cause instanceof UnavailableError ? cause : new UnavailableError('r2', cause);
  }
}

/**
 * C44: the page's logo, its bytes checked against its type (PNG, JPEG, WebP or GIF; never SVG) and
 * its size, put in the bucket of the project's place, and then named by the project. Returns the
 * project after.
 */
export async function setLogo(
  m: Manager,
  projectId: string,
  bytes: Uint8Array,
  type: string,
): Promise<ProjectView> {
  const logo = await checkLogo(bytes, type);
  const p = await requireProject(m, projectId);
  const bucket = bucketOf(m);
  await r2(() => putLogo(bucket, p.id, bytes, logo));
  const pageLogo = JSON.stringify(logo);
  await updateProjectSettings(m.db, p.id, { pageLogo });
  await recordChange(m, p.id, 'page.logo', { ...logo });
  return projectView({ ...p, pageLogo }, m.place);
}

/** C44: the page's logo's bytes and type, from the bucket of the project's place; none without one. */
export async function readLogo(
  m: Manager,
  view: Pick<ProjectView, 'id' | 'page'>,
): Promise<{ type: string; bytes: Uint8Array } | undefined> {
  const { logo } = view.page;
  if (logo === null) return undefined;
  const object = await r2(() => bucketOf(m).get(logoKey(view.id)));
  if (object === null) return undefined;
  return { type: logo.type, bytes: new Uint8Array(await object.arrayBuffer()) };
}

/**
 * C44: the page has no logo any more: the project says so first, then its bytes leave the bucket
 * (should that fail, they stay under the project's prefix, and go with the project).
 */
export async function removeLogo(m: Manager, projectId: string): Promise<ProjectView> {
  const p = await requireProject(m, projectId);
  if (p.pageLogo === null) throw new NotFound(`The page of project '${p.id}' has no logo`);
  const bucket = bucketOf(m);
  await updateProjectSettings(m.db, p.id, { pageLogo: null });
  await r2(() => deleteLogo(bucket, p.id));
  await recordChange(m, p.id, 'page.logo.remove');
  return projectView({ ...p, pageLogo: null }, m.place);
}
