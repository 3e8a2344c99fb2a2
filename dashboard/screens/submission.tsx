// C33, C34: one submission beside the list: every field, the time in the viewer's zone, its files
// (a picture shown, a PDF in the browser's own viewer unless its bytes say no viewer could, anything
// else to download; each with its size), the spam filter's verdict (C39) and the state of its
// deliveries. Opening it marks it read.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, fileBytes, fileUrl, projectPath } from '../api.ts';
import { pdfLooksRenderable, sizeText } from '../files.ts';
import type { Delivery, FileMeta, Submission } from '../server-types.ts';
import { act, messageOf, Time, useLoad } from '../ui.tsx';

export type { FileMeta, Submission };

/**
 * C39: a verdict's reason in one line, as the tool shows it: `classifier: link domain bit.ly; url
 * shortener`. Its signals may be words a stranger typed: shown as text, never as markup.
 */
export const reasonText = (reason: Submission['spamReason']) =>
  reason === null
    ? ''
    : reason.signals.length === 0
      ? reason.layer
      : `${reason.layer}: ${reason.signals.join('; ')}`;

const VERDICTS: Record<Submission['spamVerdict'], string> = {
  ham: 'ham',
  unsure: 'unsure',
  spam: 'spam',
  none: 'none (not judged)',
  pending: 'pending (judged within seconds of its arrival)',
};

/** C39: `Spam filter: spam (score 0.97) — classifier: link domain bit.ly; url shortener`. */
function SpamVerdict({ submission: s }: { submission: Submission }) {
  return (
    <p class="muted">
      Spam filter: {VERDICTS[s.spamVerdict]}
      {s.spamScore !== null && ` (score ${s.spamScore.toFixed(2)})`}
      {s.spamReason !== null && ` — ${reasonText(s.spamReason)}`}
    </p>
  );
}

const isFile = (v: unknown): v is FileMeta => typeof v === 'object' && v !== null && 'sha256' in v;
const IMAGE = /^image\/(?:png|jpeg|gif|webp|avif)$/;

/**
 * C33: a PDF is framed only once its bytes look like a document a viewer can open; else it is said
 * plainly, where the browser's viewer would frame only its own failure, and the link downloads it.
 */
function PdfPreview({ url, meta }: { url: string; meta: FileMeta }) {
  const [state, setState] = useState<{ shown: boolean } | { problem: string } | undefined>();
  useEffect(() => {
    let live = true;
    setState(undefined);
    fileBytes(url).then(
      (bytes) =>
        live &&
        setState(
          pdfLooksRenderable(bytes)
            ? { shown: true }
            : { problem: 'This PDF cannot be shown here: it looks damaged or empty.' },
        ),
      (e) => live && setState({ problem: `This PDF cannot be shown here. ${messageOf(e)}.` }),
    );
    return () => {
      live = false;
    };
  }, [url]);
  if (state === undefined) return <p class="muted">Checking the PDF…</p>;
  if ('shown' in state) return <iframe src={url} title={`The PDF ${meta.name}`} class="pdf" />;
  return (
    <p>
      {state.problem}{' '}
      <a href={url} download={meta.name}>
        Download it
      </a>{' '}
      to open it.
    </p>
  );
}

function FileValue({ url, meta }: { url: string; meta: FileMeta }) {
  return (
    <div class="file">
      {IMAGE.test(meta.type) && <img src={url} alt={meta.name} loading="lazy" />}
      {meta.type === 'application/pdf' && <PdfPreview url={url} meta={meta} />}
      <a href={url} download={meta.name}>
        {meta.name}
      </a>{' '}
      <span class="muted">
        ({meta.type}, {sizeText(meta.size)})
      </span>
    </div>
  );
}

export function Detail({
  projectId,
  id,
  onChange,
  onDelete,
  onClose,
}: {
  projectId: string;
  id: string;
  onChange: (s: Submission) => void;
  onDelete: () => void;
  onClose: () => void;
}) {
  const path = projectPath(projectId, `/submissions/${encodeURIComponent(id)}`);
  const [submission, setSubmission] = useState<Submission | undefined>();
  const [error, setError] = useState<string | undefined>();
  const heading = useRef<HTMLHeadingElement>(null);
  const deliveries = useLoad(
    () =>
      api<{ deliveries: Delivery[] }>(
        'GET',
        projectPath(projectId, `/deliveries?submission=${encodeURIComponent(id)}`),
      ),
    [projectId, id],
  );
  useEffect(() => {
    let live = true;
    (async () => {
      let { submission: s } = await api<{ submission: Submission }>('GET', path);
      // Opened: read.
      if (!s.read) s = (await api<{ submission: Submission }>('PATCH', path, { read: true })).submission;
      if (!live) return;
      setSubmission(s);
      onChange(s);
      heading.current?.focus();
    })().catch((e) => live && setError(messageOf(e)));
    return () => {
      live = false;
    };
  }, [path]);
  const update = (change: Partial<Pick<Submission, 'read' | 'starred' | 'spam'>>, done: string) =>
    act(async () => {
      const { submission: s } = await api<{ submission: Submission }>('PATCH', path, change);
      setSubmission(s);
      onChange(s);
      if (change.spam === false) deliveries.reload();
    }, done);

  return (
    <section class="detail" aria-labelledby="detail-heading">
      <div class="row spread">
        <h2 id="detail-heading" tabIndex={-1} ref={heading}>
          {submission ? <Time iso={submission.receivedAt} /> : 'Submission'}
        </h2>
        <button type="button" onClick={onClose} aria-label="Close the submission">
          ×
        </button>
      </div>
      {error && <p class="error">{error}</p>}
      {submission && (
        <>
          <div class="row">
            <button
              type="button"
              aria-pressed={submission.starred}
              onClick={() =>
                void update({ starred: !submission.starred }, submission.starred ? 'Unstarred' : 'Starred')
              }
            >
              {submission.starred ? '★ Starred' : '☆ Star'}
            </button>
            <button
              type="button"
              onClick={() =>
                void update({ read: !submission.read }, submission.read ? 'Marked unread' : 'Marked read')
              }
            >
              {submission.read ? 'Mark unread' : 'Mark read'}
            </button>
            <button
              type="button"
              onClick={() =>
                void update({ spam: !submission.spam }, submission.spam ? 'Marked not spam' : 'Marked spam')
              }
            >
              {submission.spam ? 'Not spam' : 'Spam'}
            </button>
            <button type="button" class="danger" onClick={onDelete}>
              Delete
            </button>
          </div>
          {submission.spam && <p class="tag">Spam: not delivered. “Not spam” delivers it once.</p>}
          <SpamVerdict submission={submission} />
          <dl class="fields">
            {Object.entries(submission.fields).map(([name, value]) => (
              <div key={name}>
                <dt>{name}</dt>
                <dd>
                  {isFile(value) ? (
                    <FileValue url={fileUrl(projectId, submission.id, name)} meta={value} />
                  ) : (
                    String(value)
                  )}
                </dd>
              </div>
            ))}
          </dl>
          <p class="muted">
            Received <Time iso={submission.receivedAt} /> · id <code>{submission.id}</code>
          </p>
          <h3>Deliveries</h3>
          {deliveries.data && deliveries.data.deliveries.length === 0 && <p class="muted">None.</p>}
          <ul class="plain">
            {deliveries.data?.deliveries.map((d) => (
              <li key={d.id}>
                <span class={`state ${d.status}`}>{d.status}</span>{' '}
                {d.kind === 'email' ? d.url.replace(/^mailto:/, '') : d.url}
                {d.lastStatus !== null && <span class="muted"> (last answer {d.lastStatus})</span>}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
