// C33: how a project behaves, in its settings: retention, honeypot, unknown fields, thank-you page,
// the notification emails' Reply-To, and the Turnstile secret (write-only).
import { useState } from 'preact/hooks';
import { api, projectPath } from '../api.ts';
import type { Project } from '../server-types.ts';
import { act, Section } from '../ui.tsx';

export function Behaviour({ project, reload }: { project: Project; reload: () => void }) {
  const [values, setValues] = useState({
    retentionDays: project.retentionDays === null ? '' : String(project.retentionDays),
    honeypot: project.honeypot ?? '',
    unknownFields: project.unknownFields,
    thankYouUrl: project.thankYouUrl ?? '',
    replyToField: project.replyToField ?? '',
    turnstileSecret: '',
  });
  const set = (patch: Partial<typeof values>) => setValues({ ...values, ...patch });
  const save = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      const orNull = (text: string) => (text.trim() === '' ? null : text.trim());
      await api('PATCH', projectPath(project.id), {
        retentionDays: values.retentionDays === '' ? null : Number(values.retentionDays),
        honeypot: orNull(values.honeypot),
        unknownFields: values.unknownFields,
        thankYouUrl: orNull(values.thankYouUrl),
        replyToField: orNull(values.replyToField),
        ...(values.turnstileSecret === '' ? {} : { turnstileSecret: values.turnstileSecret }),
      });
      set({ turnstileSecret: '' });
      reload();
    }, 'Saved');
  };
  return (
    <Section title="Behaviour">
      <form onSubmit={save} class="grid">
        <label>
          Keep submissions for (days; empty: until deleted)
          <input
            type="number"
            min="1"
            value={values.retentionDays}
            onInput={(e) => set({ retentionDays: e.currentTarget.value })}
          />
        </label>
        <label>
          Honeypot field (hidden; filled means spam)
          <input value={values.honeypot} onInput={(e) => set({ honeypot: e.currentTarget.value })} />
        </label>
        <label>
          Unknown fields
          <select
            value={values.unknownFields}
            onChange={(e) => set({ unknownFields: e.currentTarget.value as Project['unknownFields'] })}
          >
            <option value="reject">refuse the submission</option>
            <option value="discard">drop them</option>
          </select>
        </label>
        <label>
          Thank-you page (on an allowed origin)
          <input
            type="url"
            value={values.thankYouUrl}
            onInput={(e) => set({ thankYouUrl: e.currentTarget.value })}
          />
        </label>
        <label>
          Reply-To of notification emails (a field)
          <input value={values.replyToField} onInput={(e) => set({ replyToField: e.currentTarget.value })} />
        </label>
        <label>
          Turnstile secret ({project.turnstile ? 'set; type a new one to replace it' : 'not set'})
          <input
            type="password"
            autocomplete="off"
            value={values.turnstileSecret}
            onInput={(e) => set({ turnstileSecret: e.currentTarget.value })}
          />
        </label>
        <div class="row">
          <button type="submit" class="primary">
            Save
          </button>
          {project.turnstile && (
            <button
              type="button"
              onClick={() =>
                void act(async () => {
                  await api('PATCH', projectPath(project.id), { turnstileSecret: null });
                  reload();
                }, 'Turnstile is off')
              }
            >
              Remove the Turnstile secret
            </button>
          )}
        </div>
      </form>
    </Section>
  );
}
