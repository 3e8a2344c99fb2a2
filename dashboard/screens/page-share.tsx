// C44: the hosted page's address to share: the link with a copy button, a QR code of it (drawn
// from uqr's matrix as SVG, and downloadable as an SVG file), and where the same fields are as a
// snippet for one's own site. And the page's logo: uploaded as the image itself, shown, removed.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { encode, renderSVG } from 'uqr';
import { api, type Envelope, Problem, projectPath } from '../api.ts';
import { sizeText } from '../files.ts';
import type { PageSettings, Project } from '../server-types.ts';
import { screenPath } from '../session.ts';
import { act, CopyButton, confirm, Section } from '../ui.tsx';

/** A QR code with a quiet zone of four modules, as the standard asks; M: 15% may be lost to a smudge. */
const QR = { ecc: 'M', border: 4 } as const;

/** The QR code of `text`, one rectangle per run of dark modules in a row; its name says what it holds. */
function QrCode({ text, name }: { text: string; name: string }) {
  const qr = useMemo(() => encode(text, QR), [text]);
  const runs: { x: number; y: number; width: number }[] = [];
  qr.data.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) {
      if (!row[x]) continue;
      const start = x;
      while (row[x + 1]) x++;
      runs.push({ x: start, y, width: x - start + 1 });
    }
  });
  return (
    <svg
      class="qr"
      role="img"
      aria-label={name}
      viewBox={`0 0 ${qr.size} ${qr.size}`}
      shape-rendering="crispEdges"
    >
      <rect width={qr.size} height={qr.size} fill="#fff" />
      {runs.map((r) => (
        <rect key={`${r.x},${r.y}`} x={r.x} y={r.y} width={r.width} height={1} fill="#000" />
      ))}
    </svg>
  );
}

/** An address for the file `text` is, made anew when it changes and let go after. */
function useBlobUrl(text: string, type: string): string | undefined {
  const [url, setUrl] = useState<string | undefined>();
  useEffect(() => {
    const made = URL.createObjectURL(new Blob([text], { type }));
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [text, type]);
  return url;
}

export function Share({ project, address }: { project: Project; address: string }) {
  const svg = useMemo(() => renderSVG(address, QR), [address]);
  const download = useBlobUrl(svg, 'image/svg+xml');
  return (
    <Section title="Share">
      {!project.page.enabled && (
        <p class="warning">The page is off: this address answers “Not found” until you turn it on.</p>
      )}
      <div class="share">
        <div>
          <p>
            <a href={address} target="_blank" rel="noopener">
              {address}
            </a>
          </p>
          <div class="row">
            <CopyButton text={address} label="Copy the link" />
            {download && (
              <a class="button" href={download} download={`${project.formId ?? 'form'}-qr.svg`}>
                Download the QR code (SVG)
              </a>
            )}
          </div>
          <p class="help">
            On your own site, the same fields as a form to paste:{' '}
            <a href={screenPath(project.id, 'embed')}>Embed</a>.
          </p>
        </div>
        <QrCode text={address} name={`QR code of the page's address, ${address}`} />
      </div>
    </Section>
  );
}

/** C44: the logo's types (the server checks its bytes against the type sent). */
const LOGO_TYPES = 'image/png,image/jpeg,image/webp,image/gif';

/**
 * The image itself as the body, of its own type: `api()` sends JSON, so this one request is made
 * here, with the session's CSRF token as every change is (C33), and read as `api()` reads a reply.
 */
async function putLogo(projectId: string, file: File, csrfToken: string): Promise<void> {
  const res = await fetch(`/api/v1${projectPath(projectId, '/page/logo')}`, {
    method: 'PUT',
    credentials: 'same-origin',
    headers: { Accept: 'application/json', 'Content-Type': file.type, 'X-CSRF-Token': csrfToken },
    body: file,
  });
  if (res.ok) return;
  const reply = (await res.json().catch(() => undefined)) as { data?: Envelope } | undefined;
  throw new Problem(
    res.status,
    reply?.data?.error?.message ??
      reply?.data?.message ??
      `The server answered ${res.status} ${res.statusText}`,
  );
}

const kindOf = (logo: NonNullable<PageSettings['logo']>) =>
  ({ 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/webp': 'WebP', 'image/gif': 'GIF' })[logo.type];

export function Logo({
  project,
  csrfToken,
  saved,
}: {
  project: Project;
  csrfToken: string;
  saved: () => void;
}) {
  const file = useRef<HTMLInputElement>(null);
  const { logo, enabled } = project.page;
  const upload = (chosen: File | undefined) => {
    if (chosen === undefined) return;
    void act(async () => {
      await putLogo(project.id, chosen, csrfToken);
      saved();
    }, 'Logo set').then(() => {
      if (file.current) file.current.value = '';
    });
  };
  const remove = async () => {
    if (!(await confirm("Remove the page's logo?", 'Remove'))) return;
    await act(async () => {
      await api('DELETE', projectPath(project.id, '/page/logo'));
      saved();
    }, 'Logo removed');
  };
  return (
    <Section title="Logo">
      {logo === null ? (
        <p class="muted">No logo: the page starts with its title.</p>
      ) : (
        <div class="row logo-row">
          {/* Served only while the page is on (C44); off, its type and size say what it is. */}
          {enabled && project.formId && (
            <img
              class="logo"
              src={`/f/${project.formId}/logo?v=${logo.sha256.slice(0, 12)}`}
              alt="The page's logo"
            />
          )}
          <p>
            A {kindOf(logo)} image of {sizeText(logo.size)}.
          </p>
          <button type="button" class="danger" onClick={() => void remove()}>
            Remove the logo
          </button>
        </div>
      )}
      <label>
        {logo === null ? 'Upload a logo' : 'Replace the logo'} (PNG, JPEG, WebP or GIF, at most 256 KiB)
        <input
          ref={file}
          type="file"
          accept={LOGO_TYPES}
          onChange={(e) => upload(e.currentTarget.files?.[0])}
        />
      </label>
    </Section>
  );
}
