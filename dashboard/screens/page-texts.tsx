// C44: the hosted page's languages (the first its default), its texts in one of them (title,
// introduction, thanks), and its look (accent colour, theme). Each is saved through the management
// API (`PATCH /projects/:id {"page": …}`, the members given replacing those members), the server's
// sentence shown when it refuses.
import { useState } from 'preact/hooks';
import { pageTextIn } from '../../src/pages/language.ts';
import { wordsOf } from '../../src/pages/words.ts';
import { languageName } from '../fields.tsx';
import type { PageChanges, PageSettings } from '../server-types.ts';
import { Choice, Section } from '../ui.tsx';

/** Saves the page's members given, saying `done` once saved. */
export type SavePage = (changes: PageChanges, done: string) => Promise<boolean>;

/** The languages, in order: added by tag, moved up or down (the first is the default), removed. */
export function Languages({ page, save }: { page: PageSettings; save: SavePage }) {
  const [tag, setTag] = useState('');
  const { languages } = page;
  const move = (at: number, by: -1 | 1) => {
    const next = [...languages];
    const [one] = next.splice(at, 1);
    if (one === undefined) return;
    next.splice(at + by, 0, one);
    void save({ languages: next }, `${languageName(next[0] ?? one)} is first: the default`);
  };
  const add = async (event: Event) => {
    event.preventDefault();
    if (await save({ languages: [...languages, tag.trim()] }, `Added ${languageName(tag.trim())}`))
      setTag('');
  };
  return (
    <Section title="Languages">
      <p class="help">
        The page speaks the visitor's language among these (<code>?lang=</code>, else the browser's); the
        first is the default.
      </p>
      <ol class="plain languages">
        {languages.map((lang, at) => {
          const name = languageName(lang);
          return (
            <li key={lang} class="row spread">
              <span>
                {name}
                {at === 0 && <span class="tag">default</span>}
              </span>
              <span class="row">
                <button
                  type="button"
                  aria-label={`Move ${name} up`}
                  disabled={at === 0}
                  onClick={() => move(at, -1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  aria-label={`Move ${name} down`}
                  disabled={at === languages.length - 1}
                  onClick={() => move(at, 1)}
                >
                  ↓
                </button>
                <button
                  type="button"
                  class="danger"
                  aria-label={`Remove ${name}`}
                  disabled={languages.length === 1}
                  onClick={() =>
                    void save({ languages: languages.filter((l) => l !== lang) }, `Removed ${name}`)
                  }
                >
                  Remove
                </button>
              </span>
            </li>
          );
        })}
      </ol>
      <form class="row" onSubmit={add}>
        <label>
          Language tag (BCP 47: en, de, pt-BR)
          <input value={tag} required onInput={(e) => setTag(e.currentTarget.value)} />
        </label>
        <button type="submit">Add the language</button>
      </form>
    </Section>
  );
}

/** A map with `lang`'s text set, or left out when blank. */
function withText(map: Record<string, string>, lang: string, text: string): Record<string, string> {
  const { [lang]: _old, ...others } = map;
  return text.trim() === '' ? others : { ...others, [lang]: text };
}

const TEXTS = ['title', 'intro', 'thanks'] as const;

/**
 * The page's texts in one of its languages (`lang`, chosen here for the preview too); only those
 * changed are sent, each map whole with the other languages as they are. A blank one shows what
 * the page shows instead (C44: the default language's, else another's, but the thanks: else the
 * page's own), greyed in its box.
 */
export function Texts({
  page,
  lang,
  projectName,
  onLang,
  save,
}: {
  page: PageSettings;
  lang: string;
  projectName: string;
  onLang: (lang: string) => void;
  save: SavePage;
}) {
  const [texts, setTexts] = useState(() => ({
    title: page.title[lang] ?? '',
    intro: page.intro[lang] ?? '',
    thanks: page.thanks[lang] ?? '',
  }));
  const set = (patch: Partial<typeof texts>) => setTexts({ ...texts, ...patch });
  const name = languageName(lang);
  const instead = (member: (typeof TEXTS)[number]) => {
    const { [lang]: _own, ...others } = page[member];
    const shown = pageTextIn(others, member, lang, page.languages[0] ?? lang);
    if (shown !== undefined) return shown;
    return member === 'title' ? projectName : member === 'thanks' ? wordsOf(lang).thanks : '';
  };
  const submit = (event: Event) => {
    event.preventDefault();
    const changes: PageChanges = {};
    for (const member of TEXTS) {
      if (texts[member] !== (page[member][lang] ?? ''))
        changes[member] = withText(page[member], lang, texts[member]);
    }
    void save(changes, `Saved the texts in ${name}`);
  };
  return (
    <Section title="Texts">
      <p class="help">
        Left blank, a text is shown as in the default language, else in another (greyed in its box); with
        none, the title is the project's name and the thanks the page's own words.
      </p>
      <form class="grid" onSubmit={submit}>
        <Choice
          label="Language to write and preview"
          value={lang}
          options={page.languages.map((l) => ({ value: l, label: languageName(l) }))}
          onChange={onLang}
        />
        <label class="whole">
          Title in {name}
          <input
            lang={lang}
            value={texts.title}
            placeholder={instead('title')}
            onInput={(e) => set({ title: e.currentTarget.value })}
          />
        </label>
        <label>
          Introduction in {name} (a blank line between paragraphs)
          <textarea
            lang={lang}
            rows={4}
            value={texts.intro}
            placeholder={instead('intro')}
            onInput={(e) => set({ intro: e.currentTarget.value })}
          />
        </label>
        <label>
          Thanks in {name}, once the form is sent
          <textarea
            lang={lang}
            rows={2}
            value={texts.thanks}
            placeholder={instead('thanks')}
            onInput={(e) => set({ thanks: e.currentTarget.value })}
          />
        </label>
        <div class="row">
          <button type="submit" class="primary">
            Save the texts in {name}
          </button>
        </div>
      </form>
    </Section>
  );
}

const THEMES = [
  { value: 'auto', label: "the visitor's (light or dark)" },
  { value: 'light', label: 'light' },
  { value: 'dark', label: 'dark' },
] as const;

/** The accent colour (the button, links, focus) and the theme. */
export function Look({ page, save }: { page: PageSettings; save: SavePage }) {
  const [accent, setAccent] = useState(page.accent);
  const [theme, setTheme] = useState(page.theme);
  return (
    <Section title="Look">
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          void save({ accent, theme }, 'Saved the look');
        }}
      >
        <label>
          Accent colour
          <input type="color" value={accent} onInput={(e) => setAccent(e.currentTarget.value)} />
        </label>
        <Choice label="Theme" value={theme} options={THEMES} onChange={setTheme} />
        <button type="submit">Save the look</button>
      </form>
    </Section>
  );
}
