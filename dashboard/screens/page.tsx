// C33, C44: the Page screen, a designer for the project's hosted form page (`/f/<form-id>`): on or
// off, its languages, its texts in each, its look and logo, the address to share (with a QR code),
// and beside them the real page in a frame, loaded again after each save. A field that looks like it
// asks for a secret is warned of here too. Everything is saved through the management API.
import { useEffect, useState } from 'preact/hooks';
import { textIn } from '../../src/pages/language.ts';
import { api, projectPath } from '../api.ts';
import { languageName, SecretWarning } from '../fields.tsx';
import type { PageChanges, Project } from '../server-types.ts';
import { type ScreenProps, screenPath } from '../session.ts';
import { act, messageOf, Section, useLoad } from '../ui.tsx';
import { Logo, Share } from './page-share.tsx';
import { Languages, Look, Texts } from './page-texts.tsx';

type Framed = { shown?: string | undefined; problem?: string | undefined };

/**
 * The address to frame: `src` once it answers with the page. A page that is not there is a 404 that
 * no site may frame, which a frame would show only as the browser's refusal, so it is asked for
 * first and its problem said in words; meanwhile the frame keeps the page it showed. `src`'s `_`
 * changes after each save: the browser keeps the page as it keeps any page (the worker purges its
 * own copy on each change).
 */
function useFramed(src: string | undefined): Framed {
  const [framed, setFramed] = useState<Framed>({});
  useEffect(() => {
    if (src === undefined) return;
    let live = true;
    const problem = (text: string) => live && setFramed({ problem: text });
    fetch(src, { credentials: 'omit' }).then(
      (res) => {
        if (res.ok) live && setFramed({ shown: src });
        else if (res.status === 404)
          problem(
            'The page is on, but its address answers “Not found”: this deployment serves no hosted pages (HOSTED_PAGES is off), or the project is being moved.',
          );
        else problem(`The page's address answered ${res.status} ${res.statusText}.`);
      },
      (e: unknown) => problem(`The page could not be loaded: ${messageOf(e)}.`),
    );
    return () => {
      live = false;
    };
  }, [src]);
  return framed;
}

/** C44: the real page in the language chosen, framed sandboxed: it runs no script and sends nothing. */
function Preview({ project, lang, round }: { project: Project; lang: string; round: number }) {
  const { enabled } = project.page;
  const src =
    enabled && project.formId
      ? `/f/${encodeURIComponent(project.formId)}?${new URLSearchParams({ lang, _: String(round) })}`
      : undefined;
  const { shown, problem } = useFramed(src);
  return (
    <section class="page-preview" aria-labelledby="page-preview">
      <h2 id="page-preview">Preview in {languageName(lang)}</h2>
      {!enabled ? (
        <p class="frame-off">The page is off: turn it on to see it here.</p>
      ) : problem !== undefined ? (
        <p class="frame-off error">{problem}</p>
      ) : shown === undefined ? (
        <p class="frame-off loading">Loading the page…</p>
      ) : (
        <>
          <iframe
            class="page-frame"
            title={`The hosted page in ${languageName(lang)}`}
            sandbox=""
            src={shown}
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
              {f.label?.[lang] ?? (
                <span class="muted">
                  no label in {languageName(lang)}:{' '}
                  {instead === undefined ? 'the page shows its name' : `the page shows “${instead}”`}
                </span>
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
  // The frame is loaded again once the project is read again after a save, not at the save's
  // reply: the worker purges its cached page just after that reply.
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
          <Look key={`${page.accent}${page.theme}`} page={page} save={save} />
          <Logo project={project} csrfToken={session.csrfToken} saved={loaded.reload} />
          <FieldsShown project={project} lang={lang} />
        </div>
        <Preview project={project} lang={lang} round={round} />
      </div>
    </>
  );
}
