// C39: a project's spam filter in Settings: what it does with spam, the classifier's threshold
// (with what it catches and wrongly holds at that value on the held-out contact-form messages and
// the public mail corpus), what it shares with the deployment's other projects, the allow and block
// lists, the signals only a form has (settings-spam-signals.tsx), and how many of the owner's marks
// it learnt.
import { useState } from 'preact/hooks';
import curve from '../../data/spam-curve.json';
import {
  LIST_KINDS,
  type ListEntry,
  type ListKind,
  MAX_THRESHOLD,
  MIN_THRESHOLD,
  SPAM_MODES,
  SPAM_SHARING,
  type SpamMode,
  type SpamSharing,
  unsureFrom,
} from '../../src/spam/settings.ts';
import { api, projectPath } from '../api.ts';
import type { Project } from '../server-types.ts';
import { act, Section } from '../ui.tsx';
import { SpamSignals } from './settings-spam-signals.tsx';

const MODES: Record<SpamMode, { label: string; help: string }> = {
  off: { label: 'Off', help: 'nothing is judged; a filled honeypot is still held.' },
  mark: {
    label: 'Mark',
    help: 'the verdict is recorded and shown; the submission stays in the inbox and is delivered.',
  },
  hold: {
    label: 'Hold (the default)',
    help: 'spam is moved to spam and nothing of it is delivered until you take it out.',
  },
};

const SHARING: Record<SpamSharing, { label: string; help: string }> = {
  both: {
    label: 'Give and take (the default)',
    help: "your marks teach the other projects' filters, and theirs teach yours.",
  },
  take: { label: 'Take only', help: "your filter learns from the other projects' marks; yours stay here." },
  none: { label: 'Neither', help: 'your filter learns from your marks alone.' },
};

const count = (n: number) => n.toLocaleString('en');
const percent = (x: number) => `${(x * 100).toFixed(1)}%`;

/**
 * What the threshold does at `t` on the form corpus's held-out messages and the SpamAssassin
 * corpus's held-out mails, as `npm run bench:spam` measured it on a fresh project
 * (data/spam-curve.json, one point per hundredth).
 */
function expected(t: number, mode: SpamMode): string {
  const point = curve.find((p) => Math.abs(p.threshold - t) < 0.005);
  if (!point) return '';
  const held = mode === 'mark' ? 'marks as spam' : mode === 'off' ? 'would hold' : 'holds';
  const { form, mail } = point;
  return `At ${t.toFixed(2)}, on contact-form messages it never learnt from, a new project ${held} ${percent(form.recall)} of spam and ${count(form.falsePositives)} of ${count(form.ham)} genuine messages (${count(form.unsure)} unsure); on public mail, ${percent(mail.recall)} of spam and ${count(mail.falsePositives)} of ${count(mail.ham)} real mails.`;
}

/** The mode and the threshold, saved together. */
function ModeAndThreshold({ project, reload }: { project: Project; reload: () => void }) {
  const [mode, setMode] = useState(project.spamFilter.mode);
  const [threshold, setThreshold] = useState(project.spamFilter.threshold);
  const [sharing, setSharing] = useState(project.spamFilter.sharing);
  const save = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      await api('PATCH', projectPath(project.id), { spamFilter: { mode, threshold, sharing } });
      reload();
    }, 'Saved');
  };
  return (
    <form onSubmit={save}>
      <fieldset>
        <legend>What to do with spam</legend>
        {SPAM_MODES.map((m) => (
          <label class="check" key={m}>
            <input type="radio" name="spam-mode" value={m} checked={mode === m} onChange={() => setMode(m)} />
            <span>
              <strong>{MODES[m].label}</strong>: {MODES[m].help}
            </span>
          </label>
        ))}
      </fieldset>
      <label>
        Threshold: spam from a probability of {threshold.toFixed(2)}
        <input
          id="spam-threshold"
          type="range"
          min={MIN_THRESHOLD}
          max={MAX_THRESHOLD}
          step="0.01"
          value={threshold}
          onInput={(e) => setThreshold(Number(e.currentTarget.value))}
        />
      </label>
      <p class="help">
        <output for="spam-threshold">{expected(threshold, mode)}</output> The score is the classifier's
        probability that a submission is spam. From {unsureFrom(threshold).toFixed(2)} up to{' '}
        {threshold.toFixed(2)} it is unsure: the submission stays in the inbox, tagged unsure, never moved to
        spam. Below {unsureFrom(threshold).toFixed(2)}: not spam.
      </p>
      <fieldset>
        <legend>Learning with the other projects</legend>
        {SPAM_SHARING.map((s) => (
          <label class="check" key={s}>
            <input
              type="radio"
              name="spam-sharing"
              value={s}
              checked={sharing === s}
              onChange={() => setSharing(s)}
            />
            <span>
              <strong>{SHARING[s].label}</strong>: {SHARING[s].help}
            </span>
          </label>
        ))}
        <p class="help">
          Only counts of words and signals, and the fingerprints of messages marked in the last 14 days, are
          shared, never a message's text. What other projects marked holds a message here only when two of
          them agree, or the operator marked it; one project's marks make it unsure at most.
        </p>
      </fieldset>
      <button type="submit" class="primary">
        Save the spam filter
      </button>
    </form>
  );
}

/** An allow or block list: each change saved at once (the list sent replaces the stored one). */
function SpamList({
  project,
  which,
  reload,
}: {
  project: Project;
  which: 'allow' | 'block';
  reload: () => void;
}) {
  const entries = project.spamFilter[which];
  const [kind, setKind] = useState<ListKind>('domain');
  const [value, setValue] = useState('');
  const title = which === 'allow' ? 'Allow list' : 'Block list';
  const heading = `spam-${which}`;
  const store = (list: ListEntry[], done: string) =>
    act(async () => {
      await api('PATCH', projectPath(project.id), { spamFilter: { [which]: list } });
      reload();
    }, done);
  const add = async (event: Event) => {
    event.preventDefault();
    if (await store([...entries, { kind, value }], 'Added')) setValue('');
  };
  return (
    <section aria-labelledby={heading}>
      <h3 id={heading}>{title}</h3>
      <p class="help">
        {which === 'allow'
          ? 'Never spam, read first: an address you trust is never held.'
          : 'Always spam, unless the allow list says otherwise.'}{' '}
        A domain matches an address's or a link's, and those under it; a phrase matches anywhere in the text.
      </p>
      <ul class="plain">
        {entries.map((entry, i) => (
          <li key={`${entry.kind} ${entry.value}`} class="row spread">
            <span>
              <span class="muted">{entry.kind}</span> {entry.value}
            </span>
            <button
              type="button"
              class="danger"
              aria-label={`Remove ${entry.kind} ${entry.value} from the ${which} list`}
              onClick={() =>
                void store(
                  entries.filter((_, j) => j !== i),
                  'Removed',
                )
              }
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form class="row" onSubmit={(e) => void add(e)}>
        <label>
          Kind
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value as ListKind)}>
            {LIST_KINDS.map((k) => (
              <option key={k}>{k}</option>
            ))}
          </select>
        </label>
        <label>
          {which === 'allow' ? 'Address, domain or phrase to allow' : 'Address, domain or phrase to block'}
          <input
            value={value}
            required
            placeholder={
              kind === 'address' ? 'someone@example.com' : kind === 'domain' ? 'example.com' : 'guest post'
            }
            onInput={(e) => setValue(e.currentTarget.value)}
          />
        </label>
        <button type="submit">Add</button>
      </form>
    </section>
  );
}

export function SpamFilterSettings({ project, reload }: { project: Project; reload: () => void }) {
  const { mode, threshold, sharing, learned, requireWidget, proofOfWork, countries, languages } =
    project.spamFilter;
  return (
    <Section title="Spam filter">
      <p class="help">
        Every submission gets a verdict, a score from 0 to 1 and a reason: a filled honeypot, a list's entry,
        the widget's token or fill time, the same text a third time in a day, a copy of a campaign marked
        before, or the classifier's strongest signals and where it learnt them (your marks, the other
        projects', the shipped prior). Spam is stored, never dropped. Marking a submission spam or not spam
        teaches the classifier.
      </p>
      {/* Made anew when the saved mode, threshold or sharing changes, not when a list does: a choice not yet saved survives those. */}
      <ModeAndThreshold key={`${mode} ${threshold} ${sharing}`} project={project} reload={reload} />
      {/* Likewise, made anew when a saved signal setting changes (the codes as the API wrote them). */}
      <SpamSignals
        key={JSON.stringify([requireWidget, proofOfWork, countries, languages])}
        project={project}
        reload={reload}
      />
      <SpamList project={project} which="allow" reload={reload} />
      <SpamList project={project} which="block" reload={reload} />
      <p>
        Learnt from your marks: {count(learned.spam)} spam, {count(learned.ham)} not spam.
      </p>
    </Section>
  );
}
