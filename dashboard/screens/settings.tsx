// C33: a project's settings, one screen per job, each at its own address
// (`#/p/<project>/settings/<job>`) under a navigation of its own: what the form takes (Fields),
// who may post and manage (Access), where submissions go (Delivery), the spam filter (C39), how
// it behaves (with its limits, C45, and its drafts, C46), and where it lives (C41) with deleting it.
// `#/p/<project>/settings` opens the first. A key or a secret is shown once, with a copy button.
import type { VNode } from 'preact';
import { api, projectPath } from '../api.ts';
import type { Project } from '../server-types.ts';
import { type JobProps, type ScreenProps, screenPath } from '../session.ts';
import { useLoad } from '../ui.tsx';
import { Behaviour } from './settings-behaviour.tsx';
import { ConfirmationSettings, Webhooks } from './settings-delivery.tsx';
import { DraftsSettings } from './settings-drafts.tsx';
import { Fields } from './settings-fields.tsx';
import { Integrations } from './settings-integrations.tsx';
import { Keys } from './settings-keys.tsx';
import { LimitsSettings } from './settings-limits.tsx';
import { EmailRecipients, Origins } from './settings-lists.tsx';
import { PlaceSettings } from './settings-place.tsx';
import { SpamFilterSettings } from './settings-spam.tsx';

/** The jobs, in the order of the navigation; the first is where `…/settings` opens. */
export const JOBS = [
  { job: 'fields', label: 'Fields', about: 'What the form takes: each field, its type and its rules.' },
  { job: 'access', label: 'Access', about: 'Keys, and the sites whose pages may post.' },
  {
    job: 'delivery',
    label: 'Delivery',
    about: 'Where each submission goes: webhooks, chat, integrations, email, the confirmation.',
  },
  { job: 'spam', label: 'Spam', about: 'The spam filter: its mode, its threshold, its signals and lists.' },
  {
    job: 'behaviour',
    label: 'Behaviour',
    about:
      'Thank-you page, honeypot, unknown fields, retention, Turnstile; limits: how many it takes, when it opens and closes; and drafts a visitor can continue later.',
  },
  { job: 'place', label: 'Place and deletion', about: 'Where its data lives, moving it, deleting it.' },
] as const;
export type Job = (typeof JOBS)[number]['job'];

/** The job a fragment names; the first for none or one unknown. */
export const jobOf = (name: string | undefined): (typeof JOBS)[number] =>
  JOBS.find((j) => j.job === name) ?? JOBS[0];

// A job without a case below is a compile error: every path must return a VNode.
function JobScreen({ job, project, operator, reload }: JobProps & { job: Job }): VNode {
  switch (job) {
    case 'fields':
      return <Fields project={project} reload={reload} />;
    case 'access':
      return (
        <>
          <Keys project={project} reload={reload} />
          <Origins project={project} reload={reload} />
        </>
      );
    case 'delivery':
      return (
        <>
          <Webhooks projectId={project.id} />
          <Integrations projectId={project.id} />
          <EmailRecipients projectId={project.id} operator={operator} />
          <ConfirmationSettings
            key={`confirm-${JSON.stringify(project.confirmation)}`}
            project={project}
            operator={operator}
            reload={reload}
          />
        </>
      );
    case 'spam':
      return <SpamFilterSettings project={project} reload={reload} />;
    case 'behaviour':
      // Each made anew when a setting it shows changes, not when another does: typing survives those.
      return (
        <>
          <Behaviour
            key={JSON.stringify([
              project.retentionDays,
              project.honeypot,
              project.unknownFields,
              project.thankYouUrl,
              project.replyToField,
              project.turnstile,
            ])}
            project={project}
            reload={reload}
          />
          <LimitsSettings
            key={`limits-${JSON.stringify(project.limits)}`}
            project={project}
            reload={reload}
          />
          <DraftsSettings
            key={`drafts-${JSON.stringify(project.partials)}`}
            project={project}
            reload={reload}
          />
        </>
      );
    case 'place':
      return <PlaceSettings project={project} operator={operator} reload={reload} />;
  }
}

export function SettingsScreen({ projectId, session, job }: ScreenProps & { job: string | undefined }) {
  const loaded = useLoad(() => api<{ project: Project }>('GET', projectPath(projectId)), [projectId]);
  const current = jobOf(job);
  const project = loaded.data?.project;
  return (
    <div class="settings">
      <nav aria-label="Settings" class="subnav">
        <ul>
          {JOBS.map((j) => (
            <li key={j.job}>
              <a
                href={screenPath(projectId, 'settings', j.job)}
                aria-current={j.job === current.job ? 'page' : undefined}
              >
                {j.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div class="job">
        <h1>
          {current.label}
          <span class="muted"> · settings{project ? ` of ${project.name}` : ''}</span>
        </h1>
        <p class="muted">{current.about}</p>
        {loaded.error && <p class="error">{loaded.error}</p>}
        {!project && !loaded.error && <p class="loading">Loading…</p>}
        {project && (
          <JobScreen
            job={current.job}
            project={project}
            operator={session.projectId === null}
            reload={loaded.reload}
          />
        )}
      </div>
    </div>
  );
}
