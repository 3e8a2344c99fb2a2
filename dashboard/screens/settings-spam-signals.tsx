// C39: the spam filter's signals only a form has, in Settings: the widget required, a private proof
// of work, the countries and the languages expected; each with what it costs a genuine visitor.
// Saved together, apart from the mode and the threshold (the API checks and normalises the codes).
import { useId, useState } from 'preact/hooks';
import { api, projectPath } from '../api.ts';
import type { Project } from '../server-types.ts';
import { act } from '../ui.tsx';

/** Comma-separated codes as typed ("de, en"), as a list; empty: any. */
const codesOf = (text: string) =>
  text
    .split(',')
    .map((code) => code.trim())
    .filter((code) => code !== '');

export function SpamSignals({ project, reload }: { project: Project; reload: () => void }) {
  const saved = project.spamFilter;
  const [requireWidget, setRequireWidget] = useState(saved.requireWidget);
  const [proofOfWork, setProofOfWork] = useState(saved.proofOfWork);
  const [countries, setCountries] = useState(saved.countries.join(', '));
  const [languages, setLanguages] = useState(saved.languages.join(', '));
  const id = useId();
  const save = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      await api('PATCH', projectPath(project.id), {
        spamFilter: {
          requireWidget,
          proofOfWork,
          countries: codesOf(countries),
          languages: codesOf(languages),
        },
      });
      reload();
    }, 'Saved');
  };
  return (
    <form onSubmit={save}>
      <fieldset>
        <legend>Signals only a form has</legend>
        <p class="help">
          Read from the request beside its text. A widget token forged or used before is always held as spam;
          the rest (a form filled faster than a person can, a script, a country or language you do not expect)
          make a message unsure at most, unless its text leans spam too.
        </p>
        <label class="check">
          <input
            type="checkbox"
            checked={requireWidget}
            aria-describedby={`${id}-widget`}
            onChange={(e) => setRequireWidget(e.currentTarget.checked)}
          />
          <span>
            <strong>Widget required (strict)</strong>: a submission from a page without /widget.js's token, or
            faster than a person, is spam.
          </span>
        </label>
        <p class="help" id={`${id}-widget`}>
          A page without /widget.js, or with scripts off, is held as spam; your server posting with a secret
          key is not affected.
        </p>
        <label class="check">
          <input
            type="checkbox"
            checked={proofOfWork}
            aria-describedby={`${id}-pow`}
            onChange={(e) => setProofOfWork(e.currentTarget.checked)}
          />
          <span>
            <strong>Proof of work</strong>: a submission without a solved challenge is refused.
          </span>
        </label>
        <p class="help" id={`${id}-pow`}>
          At most about a second of a phone's processor, in the background while they read and type; with
          scripts off the form is refused. Your server posting with a secret key never needs one.
        </p>
        <label>
          Expected countries (ISO codes, comma-separated; empty: any)
          <input
            value={countries}
            placeholder="DE, AT"
            autocomplete="off"
            spellcheck={false}
            aria-describedby={`${id}-countries`}
            onInput={(e) => setCountries(e.currentTarget.value)}
          />
        </label>
        <p class="help" id={`${id}-countries`}>
          A visitor abroad or on a VPN weighs towards spam, and never holds a message alone: of 55 genuine
          ones measured, 2 were held (their text was already unsure) and 12 marked unsure, in the inbox.
        </p>
        <label>
          Expected languages (BCP 47 tags, comma-separated; empty: any)
          <input
            value={languages}
            placeholder="de, en"
            autocomplete="off"
            spellcheck={false}
            aria-describedby={`${id}-languages`}
            onInput={(e) => setLanguages(e.currentTarget.value)}
          />
        </label>
        <p class="help" id={`${id}-languages`}>
          A message surely in another language weighs towards spam, and never holds a message alone: of 55
          genuine ones measured, 3 were held (their text was already unsure) and 16 marked unsure, in the
          inbox.
        </p>
      </fieldset>
      <button type="submit" class="primary">
        Save the signals
      </button>
    </form>
  );
}
