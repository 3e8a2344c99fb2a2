// C33, C44: the Page screen, a designer for the project's hosted form page (`/f/<form-id>`): on or
// off, its languages, its texts in each, its look and logo, the address to share (with a QR code),
// and beside them the real page in a frame, loaded again after each save. A field that looks like it
// asks for a secret is warned of here too. Everything is saved through the management API. C46: the
// titles of its steps, when its fields are on several (dashboard/screens/page-steps.tsx).
import { useEffect, useRef, useState } from 'preact/hooks';
import { textIn } from '../../src/pages/language.ts';
import { api, projectPath } from '../api.ts';
import { languageName } from '../fields.tsx';
import { SecretWarning } from '../secret-warning.tsx';
import type { PageChanges, Project } from '../server-types.ts';
import { type ScreenProps, screenPath } from '../session.ts';
import { act, messageOf, Section, useLoad } from '../ui.tsx';
import { Logo, Share } from './page-share.tsx';
import { Steps } from './page-steps.tsx';
import { Languages, Look, Texts } from './page-texts.tsx';

/**
 * What the page's own address answers while the page is on: a problem in words when it is not the
 * page (the operator serves no hosted pages, or the project is being moved), else nothing.
 */
function useAddressProblem(address: string | undefined, round: number): string | undefined {
  const [problem, setProblem] = useState<string | undefined>();
  useEffect(() => {
    setProblem(undefined);
    if (address === undefined) return;
    let live = true;
    const say = (text: string) => live && setProblem(text);
    fetch(address, { credentials: 'omit', cache: 'no-store' }).then(
      (res) => {
        if (res.status === 404)
          say(
            'The page is on, but its address answers “Not found”: this deployment serves no hosted pages (HOSTED_PAGES is off), or the project is being moved.',
          );
        else if (!res.ok) say(`The page's address answered ${res.status} ${res.statusText}.`);
      },
      (e: unknown) => say(`The page's address could not be reached: ${messageOf(e)}.`),
    );
    return () => {
      live = false;
    };
  }, [address, round]);
  return problem;
}

/**
 * C44: the page's whole height once it is drawn, so that the frame shows all of it (its Send button
 * too) instead of a window onto its top. The frame's document is of the dashboard's origin
 * (`allow-same-origin`, and no `allow-scripts`: it runs nothing itself), so its height can be read.
 */
function useWholeHeight() {
  const ref = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState<number | undefined>();
  const measure = () => {
    const root = ref.current?.contentDocument?.documentElement;
    if (root) setHeight(root.scrollHeight);
  };
  useEffect(() => {
    // The width of the column decides where the page's lines break, and so its height.
    const frame = ref.current;
    if (frame === null || typeof ResizeObserver === 'undefined') return;
    const watch = new ResizeObserver(measure);
    watch.observe(frame);
    return () => watch.disconnect();
  }, []);
  return { ref, height, measure };
}

/**
 * C44: the page in the language chosen, on or off, as its address would serve it (the management
 * API's preview, never cached: made anew after each save), framed sandboxed: it runs no script and
 * sends nothing; the frame as tall as the page.
 */
function Preview({ project, lang, round }: { project: Project; lang: string; round: number }) {
  const { enabled } = project.page;
  const whole = useWholeHeight();
  const src = `/api/v1${projectPath(project.id, '/page/preview')}?${new URLSearchParams({ lang })}`;
  const problem = useAddressProblem(
    enabled && project.formId ? `/f/${encodeURIComponent(project.formId)}` : undefined,
    round,
  );
  return (
    <section class="page-preview" aria-labelledby="page-preview">
      <h2 id="page-preview">Preview in {languageName(lang)}</h2>
      {!enabled ? (
        <p class="frame-off">The page is off: this is how it will look once it is on.</p>
      ) : (
        problem !== undefined && <p class="frame-off error">{problem}</p>
      )}
      {project.formId !== null && (
        <>
          <iframe
            key={round}
            ref={whole.ref}
            class="page-frame"
            title={`The hosted page in ${languageName(lang)}`}
            sandbox="allow-same-origin"
            src={src}
            onLoad={whole.measure}
            style={whole.height === undefined ? undefined : { height: `${whole.height + 2}px` }}
          />
          <p class="help">
            The page itself, as a visitor sees it: in this frame it runs no script and sends nothing.
          </p>
        </>
      )}
    </section>
  );
}

function OnOff({ project, save }: { project: Project; save: (c: PageChanges, done: string) => unknown }) {
  const { enabled } = project.page;
  return (
    <Section title="Hosted page">
      <label class="check">
        <input
          type="checkbox"
          checked={enabled}
          onChange={(e) =>
            void save(
              { enabled: e.currentTarget.checked },
              e.currentTarget.checked ? 'The page is on' : 'The page is off',
            )
          }
        />
        The page is on: anyone with its address can open it and send the form
      </label>
      {project.fields.length === 0 && (
        <p class="warning">
          The project has no fields yet: the page would be a form with nothing to fill in.
        </p>
      )}
    </Section>
  );
}

/**
 * C22: Turnstile's widget on the page, shown by its site key while the project checks Turnstile (its
 * secret is set under Settings → Spam). Shown only then, or while a key is left from before.
 */
function Challenge({ project, save }: { project: Project; save: (c: PageChanges, done: string) => unknown }) {
  const saved = project.page.turnstileSiteKey;
  const [siteKey, setSiteKey] = useState(saved ?? '');
  if (!project.turnstile && saved === null) return null;
  return (
    <Section title="Turnstile">
      {project.turnstile && saved === null && (
        <p class="warning">
          The project checks Turnstile, so the page shows Turnstile's widget: it can be on once the widget's
          site key is here.
        </p>
      )}
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          const given = siteKey.trim();
          void save({ turnstileSiteKey: given === '' ? null : given }, 'Saved the site key');
        }}
      >
        <label>
          Site key
          <input
            value={siteKey}
            spellcheck={false}
            autocomplete="off"
            onInput={(e) => setSiteKey(e.currentTarget.value)}
          />
        </label>
        <button type="submit">Save the site key</button>
      </form>
      <p class="help">
        The site key (public, never the secret) of the Turnstile widget whose secret the project has, from the
        widget's settings in Cloudflare's dashboard. Add {location.host} to the widget's host names.
      </p>
    </Section>
  );
}

/**
 * Each field's label in the language chosen (C44: else the default language's, else another's,
 * else its name, as the page shows it), and a warning beside one that asks for a secret.
 */
function FieldsShown({ project, lang }: { project: Project; lang: string }) {
  const fallback = project.page.languages[0] ?? lang;
  return (
    <Section title="Fields" id="page-fields">
      <ul class="plain">
        {project.fields.map((f) => {
          const instead = textIn(f.label, lang, fallback);
          return (
            <li key={f.name}>
              <strong>{f.name}</strong>
              {': '}
              {/* C45: a captured field is a hidden input: the page shows no label for it. */}
              {f.capture ? (
                <span class="muted">hidden, filled from {f.capture}</span>
              ) : (
                (f.label?.[lang] ?? (
                  <span class="muted">
                    no label in {languageName(lang)}:{' '}
                    {instead === undefined ? 'the page shows its name' : `the page shows “${instead}”`}
                  </span>
                ))
              )}
              <SecretWarning field={f} />
            </li>
          );
        })}
      </ul>
      <p class="help">
        Each field's label, help and placeholder, in each language:{' '}
        <a href={screenPath(project.id, 'settings', 'fields')}>Settings → Fields</a>, under “What the field
        shows”.
      </p>
    </Section>
  );
}

export function PageScreen({ projectId, session }: ScreenProps) {
  const loaded = useLoad(() => api<{ project: Project }>('GET', projectPath(projectId)), [projectId]);
  const [chosen, setChosen] = useState<string | undefined>();
  // The frame is made anew once the project is read again after a save: the page as saved.
  const [round, setRound] = useState(0);
  const project = loaded.data?.project;
  useEffect(() => setRound((r) => r + 1), [project]);
  if (loaded.error) return <p class="error">{loaded.error}</p>;
  if (!project) return <p class="loading">Loading…</p>;
  const { page } = project;
  const lang = chosen !== undefined && page.languages.includes(chosen) ? chosen : (page.languages[0] ?? 'en');
  const save = (changes: PageChanges, done: string) =>
    act(async () => {
      await api('PATCH', projectPath(projectId), { page: changes });
      loaded.reload();
    }, done);
  const address = `${location.origin}/f/${project.formId ?? ''}`;
  // Forms are made anew when what they show changes (after a save), keeping typing otherwise.
  const texts = JSON.stringify([lang, page.title, page.intro, page.thanks]);
  return (
    <>
      <h1>
        Page<span class="muted"> · the hosted form page of {project.name}</span>
      </h1>
      <div class="designer">
        <div class="designer-settings">
          <OnOff project={project} save={save} />
          {project.formId === null ? (
            <p class="error">This project has no form address, so it has no page.</p>
          ) : (
            <Share project={project} address={address} />
          )}
          <Languages page={page} save={save} />
          <Texts
            key={texts}
            page={page}
            lang={lang}
            projectName={project.name}
            onLang={setChosen}
            save={save}
          />
          <Steps
            key={JSON.stringify([page.steps, page.languages, project.fields.map((f) => f.step)])}
            project={project}
            save={save}
          />
          <Look key={`${page.accent}${page.theme}`} page={page} save={save} />
          <Challenge key={page.turnstileSiteKey ?? ''} project={project} save={save} />
          <Logo project={project} csrfToken={session.csrfToken} saved={loaded.reload} />
          <FieldsShown project={project} lang={lang} />
        </div>
        <Preview project={project} lang={lang} round={round} />
      </div>
    </>
  );
}
