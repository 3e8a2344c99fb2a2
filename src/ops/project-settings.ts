// C19: a project's settings changed, each checked as when the project was made: its policy for
// unknown fields, honeypot, Turnstile secret, retention, Reply-To field, thank-you page, the
// confirmation to the submitter (C35, with its target), the spam filter (C39) and its hosted page
// (C44).
import { InvalidInput } from '../lib/faults.ts';
import { type ProjectSettings, updateProjectSettings } from '../store/projects.ts';
import { spamColumns } from '../store/spam.ts';
import { insertTarget, listTargets, newConfirmationId, setTargetEnabled } from '../store/targets.ts';
import { isOperator, type Manager, type ProjectDetails, recordChange, requireProject } from './context.ts';
import { type PageInput, parsePage, requireSiteKey } from './hosted-page.ts';
import {
  type ConfirmationInput,
  parseConfirmation,
  parseHoneypot,
  parsePolicy,
  parseReplyToField,
  parseRetentionDays,
  parseSpamFilter,
  parseThankYouUrl,
  parseTurnstileSecret,
  type SpamFilterInput,
} from './input.ts';
import { type LimitsInput, parseLimits } from './limits.ts';
import { type PartialsInput, parsePartials } from './partials.ts';
import { type ProjectView, projectView } from './project-view.ts';

/** What may change of a project's settings; `null` clears one. */
export type ProjectChanges = {
  unknownFields?: string | undefined;
  honeypot?: string | null | undefined;
  turnstileSecret?: string | null | undefined;
  retentionDays?: number | string | null | undefined;
  replyToField?: string | null | undefined;
  thankYouUrl?: string | null | undefined;
  /** C35: the confirmation to the submitter; null stops it. */
  confirmation?: ConfirmationInput | null | undefined;
  /** C39: the spam filter's settings given; the others stay. */
  spamFilter?: SpamFilterInput | undefined;
  /** C44: the hosted page's settings given; the others stay. */
  page?: PageInput | undefined;
  /** C45: the form's limits given; the others stay. */
  limits?: LimitsInput | undefined;
  /** C46: partial submissions of its hosted page in steps. */
  partials?: PartialsInput | undefined;
};

/** Changes the settings given, each checked as when the project was made; returns the project after. */
export async function updateProject(
  m: Manager,
  projectId: string,
  changes: ProjectChanges,
): Promise<ProjectView> {
  const p = await requireProject(m, projectId);
  // C44: checked before anything is changed (a confirmation's target is made as it is checked).
  const page = changes.page === undefined ? undefined : parsePage(changes.page);
  const settings: ProjectSettings = {};
  if (changes.unknownFields !== undefined) settings.unknownFields = parsePolicy(changes.unknownFields);
  if (changes.honeypot !== undefined) {
    settings.honeypot = changes.honeypot === null ? null : parseHoneypot(changes.honeypot, p.fields);
  }
  if (changes.turnstileSecret !== undefined) {
    settings.turnstileSecret =
      changes.turnstileSecret === null ? null : parseTurnstileSecret(changes.turnstileSecret);
  }
  if (changes.retentionDays !== undefined) {
    settings.retentionDays =
      changes.retentionDays === null ? null : parseRetentionDays(String(changes.retentionDays));
  }
  if (changes.replyToField !== undefined) {
    settings.replyToField =
      changes.replyToField === null ? null : parseReplyToField(changes.replyToField, p.fields);
  }
  if (changes.thankYouUrl !== undefined) {
    settings.thankYouUrl =
      changes.thankYouUrl === null
        ? null
        : parseThankYouUrl(
            changes.thankYouUrl,
            p.origins.map((o) => o.origin),
          );
  }
  // Only a change of these three: a project left so from before may still change anything else.
  if (
    settings.turnstileSecret !== undefined ||
    page?.columns.pageEnabled !== undefined ||
    page?.columns.pageTurnstileSiteKey !== undefined
  )
    requireSiteKey({ ...p, ...settings, ...page?.columns });
  if (changes.confirmation !== undefined)
    Object.assign(settings, await confirmationSettings(m, p, changes.confirmation));
  if (changes.spamFilter !== undefined)
    Object.assign(settings, spamColumns(parseSpamFilter(changes.spamFilter)));
  if (changes.limits !== undefined) Object.assign(settings, parseLimits(changes.limits, p));
  if (changes.partials !== undefined) Object.assign(settings, parsePartials(changes.partials, p));
  const pageChanged = page !== undefined && Object.keys(page.columns).length > 0;
  // One write of both, so that no failure between two leaves the page and the secret at odds (C22).
  if (pageChanged || Object.keys(settings).length > 0)
    await updateProjectSettings(m.db, p.id, { ...page?.columns, ...settings });
  if (pageChanged) await recordChange(m, p.id, 'page.update', page.detail);
  if (Object.keys(settings).length > 0) {
    // The Turnstile secret is never recorded: only that it was set or cleared.
    const { turnstileSecret, ...shown } = settings;
    await recordChange(m, p.id, 'project.update', {
      ...shown,
      ...(turnstileSecret === undefined ? {} : { turnstile: turnstileSecret !== null }),
    });
  }
  return projectView({ ...p, ...settings, ...page?.columns }, m.place);
}

/**
 * C35: the confirmation's settings, and its target turned on (made the first time) or off. It is
 * sent only for a submission that passed the project's Turnstile challenge, so it needs a
 * Turnstile secret, unless the operator opens it (`open`: sent for any submission, a risk they
 * take). No project key may open it (nor a session made from one); `open` absent keeps it as it is.
 */
async function confirmationSettings(
  m: Manager,
  p: ProjectDetails,
  input: ConfirmationInput | null,
): Promise<ProjectSettings> {
  const [target] = await listTargets(m.db, p.id, 'confirmation');
  if (input === null) {
    if (target !== undefined) await setTargetEnabled(m.db, p.id, target.id, false);
    return {
      confirmField: null,
      confirmSubject: null,
      confirmBody: null,
      confirmReplyTo: null,
      confirmOpen: false,
    };
  }
  const settings = parseConfirmation(input, p.fields);
  const open = input.open ?? p.confirmOpen;
  if (open && !p.confirmOpen && !isOperator(m.actor)) {
    throw new InvalidInput(
      'Only the operator may send confirmations for submissions that passed no Turnstile challenge (open)',
    );
  }
  if (!open && p.turnstileSecret === null) {
    throw new InvalidInput(
      "A confirmation is sent only for a submission that passed Turnstile, so that a public form cannot be made to mail strangers: set the project's Turnstile secret first (allowed origins protect nothing against a script; or the operator opens it: open)",
    );
  }
  if (target === undefined) {
    await insertTarget(m.db, {
      id: newConfirmationId(),
      projectId: p.id,
      url: 'confirm:',
      secret: '',
      kind: 'confirmation',
    });
  } else if (target.disabledAt !== null) {
    await setTargetEnabled(m.db, p.id, target.id, true);
  }
  return { ...settings, confirmOpen: open };
}
