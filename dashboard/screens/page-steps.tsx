// C46: the hosted page's steps on the Page screen: each step's title in each of the page's
// languages, a step added or the last removed, saved as the page's `steps` (`PATCH /projects/:id
// {"page": {"steps": [{"title": {…}}, …]}}`, the titles in order: a step's title is the one at its
// number). Which step a field is on is the field's own `step`, set in Settings → Fields.
import { useState } from 'preact/hooks';
import { MAX_STEPS } from '../../src/fields/display.ts';
import { textIn } from '../../src/pages/language.ts';
import { filled, wordsOf } from '../../src/pages/words.ts';
import { languageName } from '../fields.tsx';
import type { Project } from '../server-types.ts';
import { screenPath } from '../session.ts';
import { Section } from '../ui.tsx';
import type { SavePage } from './page-texts.tsx';

type Titles = Record<string, string>[];

/** A title as the API takes it: each text trimmed, a blank one left out (none: the page's words). */
const titleOf = (texts: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(texts)
      .map(([lang, text]) => [lang, text.trim()] as const)
      .filter(([, text]) => text !== ''),
  );

/**
 * The steps' titles, one set of boxes per step. A step's boxes show, greyed, what the page shows
 * instead of a blank one: its title in the default language, else another's, else "Step 2 of 3"
 * (where it is among the steps the fields are on). As many steps as the fields reach are offered,
 * so that a field moved to step 2 finds a step 2 to title.
 */
export function Steps({ project, save }: { project: Project; save: SavePage }) {
  const { page } = project;
  // The steps the fields are on, in order: the page's steps, when there are two or more.
  const used = [...new Set(project.fields.map((f) => f.step ?? 1))].sort((a, b) => a - b);
  const reached = used.length > 1 ? Math.max(...used) : 0;
  const [titles, setTitles] = useState<Titles>(() =>
    Array.from({ length: Math.max(page.steps.length, reached) }, (_, i) => ({
      ...page.steps[i]?.title,
    })),
  );
  const fallback = page.languages[0] ?? 'en';
  const set = (at: number, lang: string, text: string) =>
    setTitles(titles.map((t, i) => (i === at ? { ...t, [lang]: text } : t)));
  const instead = (at: number, lang: string) => {
    const { [lang]: _own, ...others } = titleOf(titles[at] ?? {});
    const shown = textIn(others, lang, fallback);
    if (shown !== undefined) return shown;
    const place = used.indexOf(at + 1);
    return used.length > 1 && place >= 0
      ? filled(wordsOf(lang).stepOf, { n: String(place + 1), total: String(used.length) })
      : '';
  };
  const submit = (event: Event) => {
    event.preventDefault();
    const steps = titles.map((t) => ({ title: titleOf(t) }));
    void save({ steps }, steps.length === 0 ? 'The steps have no titles' : 'Saved the steps');
  };
  return (
    <Section title="Steps">
      <p class="help">
        {used.length > 1
          ? `The fields are on ${used.length} steps: the page shows one step at a time, each under its title in the visitor's language, else “Step 1 of ${used.length}”.`
          : 'Every field is on the first step: the page is one page until a field is on a later step.'}{' '}
        A field's step is set in <a href={screenPath(project.id, 'settings', 'fields')}>Settings → Fields</a>{' '}
        (its Step). With scripts off the page is one page, each step a part of it under its title.
      </p>
      <form onSubmit={submit}>
        {titles.map((texts, at) => {
          const n = at + 1;
          const on = project.fields.filter((f) => (f.step ?? 1) === n).map((f) => f.name);
          return (
            <fieldset key={n} class="grid">
              <legend>
                Step {n} <span class="muted">({on.length > 0 ? on.join(', ') : 'no field on it'})</span>
              </legend>
              {page.languages.map((lang) => (
                <label key={lang}>
                  Title of step {n} in {languageName(lang)}
                  <input
                    lang={lang}
                    value={texts[lang] ?? ''}
                    placeholder={instead(at, lang)}
                    onInput={(e) => set(at, lang, e.currentTarget.value)}
                  />
                </label>
              ))}
            </fieldset>
          );
        })}
        <div class="row">
          <button
            type="button"
            disabled={titles.length >= MAX_STEPS}
            onClick={() => setTitles([...titles, {}])}
          >
            Add a step
          </button>
          <button type="button" disabled={titles.length === 0} onClick={() => setTitles(titles.slice(0, -1))}>
            Remove the last step
          </button>
          <button type="submit" class="primary">
            Save the steps
          </button>
        </div>
      </form>
    </Section>
  );
}
