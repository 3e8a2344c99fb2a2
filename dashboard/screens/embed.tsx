// C33: forms to paste into a site, made from the project's own fields: a plain HTML form for its
// form address, and the widget's form with a publishable key; each with a copy button and a
// preview (a sandboxed frame: it runs nothing and sends nothing). C43: and the fields as a
// TypeScript module for the site's own code, as `forms types` prints it.
import { useState } from 'preact/hooks';
import { api, projectPath } from '../api.ts';
import { plainForm, widgetForm } from '../embed.ts';
import type { Project } from '../server-types.ts';
import type { ScreenProps } from '../session.ts';
import { act, CopyButton, Section, useLoad } from '../ui.tsx';

const PLACEHOLDER_KEY = 'edgeform_pk_PASTE_A_PUBLISHABLE_KEY';

/** The form alone, plainly styled: its scripts left out (the frame would not run them anyway). */
const previewOf = (code: string) =>
  `<!doctype html><link rel="stylesheet" href="${location.origin}/admin/preview.css">${code.replace(/<script\b[^>]*><\/script>/g, '')}`;

function Snippet({ title, code, note }: { title: string; code: string; note: string }) {
  return (
    <Section title={title}>
      <p>{note}</p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a block that scrolls must be reachable by keyboard (WCAG 2.1.1) */}
      <pre class="code" tabIndex={0}>
        <code>{code}</code>
      </pre>
      <CopyButton text={code} label={`Copy the ${title.toLowerCase()}`} />
      <h3>Preview</h3>
      <iframe
        class="preview"
        title={`Preview of the ${title.toLowerCase()}`}
        sandbox=""
        srcdoc={previewOf(code)}
      />
    </Section>
  );
}

/** C43: the module is made by the management API (src/fields/generate.ts), as the tool makes it. */
function TypesBlock({ projectId }: { projectId: string }) {
  const loaded = useLoad(() => api<{ module: string }>('GET', projectPath(projectId, '/types')), [projectId]);
  const module = loaded.data?.module;
  return (
    <Section title="TypeScript types">
      <p>
        For the site's own code: the type of a submission, its JSON Schema, and a Standard Schema validator
        that judges as the worker does, with its messages and codes. Generate it again when the fields change
        (<code>npm run forms -- types {projectId}</code> prints the same).
      </p>
      {loaded.error && <p class="error">{loaded.error}</p>}
      {module === undefined ? (
        !loaded.error && <p class="loading">Loading…</p>
      ) : (
        <>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a block that scrolls must be reachable by keyboard (WCAG 2.1.1) */}
          <pre class="code" tabIndex={0}>
            <code>{module}</code>
          </pre>
          <CopyButton text={module} label="Copy the TypeScript types" />
        </>
      )}
    </Section>
  );
}

export function EmbedScreen({ projectId }: ScreenProps) {
  const loaded = useLoad(() => api<{ project: Project }>('GET', projectPath(projectId)), [projectId]);
  const [key, setKey] = useState(PLACEHOLDER_KEY);
  const project = loaded.data?.project;
  if (loaded.error) return <p class="error">{loaded.error}</p>;
  if (!project) return <p class="loading">Loading…</p>;
  const origin = location.origin;
  const makeKey = () =>
    act(async () => {
      setKey(
        (await api<{ key: string }>('POST', projectPath(projectId, '/keys'), { kind: 'publishable' })).key,
      );
    }, 'A new publishable key is in the widget form: copy it now, it is shown this once');
  return (
    <>
      <h1>Embed {project.name}</h1>
      <Snippet
        title="Plain HTML form"
        code={plainForm(project, origin)}
        note="No script and no key: the form posts to the project's form address; the worker answers with a thank-you page or a list of what to fix."
      />
      <Snippet
        title="Widget form"
        code={widgetForm(project, origin, key)}
        note="Typed JSON with each field's message beside its control, retried safely. It needs a publishable key (keys are shown once, so paste yours, or make one here)."
      />
      {key === PLACEHOLDER_KEY && (
        <button type="button" onClick={() => void makeKey()}>
          Make a publishable key for the widget form
        </button>
      )}
      <TypesBlock projectId={projectId} />
    </>
  );
}
