// C45: a form's limits, in its Behaviour settings: the most accepted submissions it takes, when it
// opens and closes, and what its hosted page says outside them, in each of the page's languages.
// Saved as `PATCH /projects/:id {"limits": …}` (each member given replaces that member, null clears
// it), the server's sentence shown when it refuses.
import { useState } from 'preact/hooks';
import { api, projectPath } from '../api.ts';
import { languageName } from '../fields.tsx';
import type { Project } from '../server-types.ts';
import { act, Section } from '../ui.tsx';

type Limits = Project['limits'];

const two = (n: number) => String(n).padStart(2, '0');

/** An API time (UTC) as a `datetime-local` input takes it: the browser's own zone, to the minute. */
function localOf(iso: string | null): string {
  if (iso === null) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

/**
 * A `datetime-local` value as the API takes it: null when empty; the time it was when untouched
 * (the input shows minutes: a time set to the second by the tool is not cut on another save); else
 * read in the browser's zone and sent with its zone, as UTC.
 */
function isoOf(local: string, was: string | null): string | null {
  if (local === '') return null;
  return local === localOf(was) ? was : new Date(local).toISOString();
}

/** The zone the times are shown and read in: the browser's. */
const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

export function LimitsSettings({ project, reload }: { project: Project; reload: () => void }) {
  const limits = project.limits;
  const languages = project.page.languages.length > 0 ? project.page.languages : ['en'];
  const [values, setValues] = useState({
    maxSubmissions: limits.maxSubmissions === null ? '' : String(limits.maxSubmissions),
    opensAt: localOf(limits.opensAt),
    closesAt: localOf(limits.closesAt),
    // Every language it has: one the page no longer speaks is sent back as it was.
    closedText: { ...limits.closedText },
  });
  const set = (patch: Partial<typeof values>) => setValues({ ...values, ...patch });
  const patch = (changes: { [K in keyof Limits]: Limits[K] | null }, done: string) =>
    void act(async () => {
      await api('PATCH', projectPath(project.id), { limits: changes });
      reload();
    }, done);
  const save = (event: Event) => {
    event.preventDefault();
    const texts = Object.entries(values.closedText)
      .map(([lang, text]) => [lang, text.trim()] as const)
      .filter(([, text]) => text !== '');
    const most = values.maxSubmissions.trim();
    patch(
      {
        maxSubmissions: most === '' ? null : Number(most),
        opensAt: isoOf(values.opensAt, limits.opensAt),
        closesAt: isoOf(values.closesAt, limits.closesAt),
        closedText: texts.length === 0 ? null : Object.fromEntries(texts),
      },
      'Saved the limits',
    );
  };
  const limited =
    limits.maxSubmissions !== null ||
    limits.opensAt !== null ||
    limits.closesAt !== null ||
    Object.keys(limits.closedText).length > 0;
  const where = zone();
  return (
    <Section title="Limits">
      <p class="help">
        Outside them the form takes nothing (a post is refused, <code>403 form_closed</code>) and its hosted
        page shows the closed text instead of the form. Spam is not counted: a submission marked spam frees
        its place.
      </p>
      <form onSubmit={save} class="grid">
        <label>
          Most submissions (empty: no limit)
          <input
            type="number"
            min="1"
            max="10000000"
            step="1"
            value={values.maxSubmissions}
            onInput={(e) => set({ maxSubmissions: e.currentTarget.value })}
          />
        </label>
        <label>
          Opens at ({where} time; empty: open now)
          <input
            type="datetime-local"
            value={values.opensAt}
            onInput={(e) => set({ opensAt: e.currentTarget.value })}
          />
        </label>
        <label>
          Closes at ({where} time; empty: never)
          <input
            type="datetime-local"
            value={values.closesAt}
            onInput={(e) => set({ closesAt: e.currentTarget.value })}
          />
        </label>
        <fieldset class="whole">
          <legend>Closed text: what the hosted page says when the form is full or closed</legend>
          <p class="help">
            In the visitor's language, else the page's first. Left blank, the page says why in its own words
            (“This form is full”, “This form is closed”).
          </p>
          <div class="grid">
            {languages.map((lang) => (
              <label key={lang}>
                {languageName(lang)}
                <textarea
                  rows={2}
                  lang={lang}
                  value={values.closedText[lang] ?? ''}
                  onInput={(e) =>
                    set({ closedText: { ...values.closedText, [lang]: e.currentTarget.value } })
                  }
                />
              </label>
            ))}
          </div>
        </fieldset>
        <div class="row">
          <button type="submit" class="primary">
            Save the limits
          </button>
          {limited && (
            <button
              type="button"
              onClick={() =>
                patch(
                  { maxSubmissions: null, opensAt: null, closesAt: null, closedText: null },
                  'The form has no limits',
                )
              }
            >
              Remove the limits
            </button>
          )}
        </div>
      </form>
    </Section>
  );
}
