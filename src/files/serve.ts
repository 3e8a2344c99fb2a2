// C30, C33: a submission's file from R2, as a download or (the dashboard's preview) shown inline,
// served the same way to the key-scoped submissions API and the management API.
import type { Context } from 'hono';
import { scriptCapable } from '../fields/file.ts';
import { fileNotFound, submissionNotFound } from '../http/replies.ts';
import { requestIdOf } from '../http/request-id.ts';
import type { Db } from '../store/db.ts';
import { findSubmission } from '../store/inbox.ts';
import { placeOf } from '../store/places.ts';
import { fileKey } from './r2.ts';

/** C30, C33: the types a browser may show inline in the dashboard: pictures and PDF, nothing that runs script. */
const VIEWABLE = /^(?:image\/(?:png|jpeg|gif|webp|avif)|application\/pdf)$/;

/**
 * The file of a submission's field, from R2: 404 when the submission or the file is not there. As
 * an attachment, or (`view`, the dashboard's preview) inline for a picture or a PDF, in a sandbox
 * that runs no script; a script-capable type is only ever bytes to download.
 */
export async function fileResponse(
  c: Context,
  db: Db,
  place: string | undefined,
  projectId: string,
  id: string,
  field: string,
  view: boolean,
): Promise<Response> {
  const found = await findSubmission(db, projectId, id);
  if (found === undefined) throw submissionNotFound();
  const fields = JSON.parse(found.data) as Record<string, unknown>;
  const meta = Object.hasOwn(fields, field) ? fields[field] : undefined;
  if (
    typeof meta !== 'object' ||
    meta === null ||
    typeof (meta as { sha256?: unknown }).sha256 !== 'string'
  ) {
    throw fileNotFound(field);
  }
  // C41: from the bucket of the project's place.
  const object = await placeOf(c.env, place).files?.get(fileKey(projectId, id, field));
  if (object === undefined || object === null) throw fileNotFound(field);
  const { name, type } = meta as { name?: unknown; type?: unknown };
  const filename = typeof name === 'string' && name !== '' ? name : field;
  // C30: a type a browser would run script in is only ever a download of bytes.
  const shown = typeof type === 'string' && !scriptCapable(type) ? type : 'application/octet-stream';
  const inline = view && VIEWABLE.test(shown);
  return new Response(object.body, {
    status: 200,
    headers: {
      'Content-Type': shown,
      'Content-Length': String(object.size),
      'Content-Disposition': contentDisposition(filename, inline ? 'inline' : 'attachment'),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
      // Shown by the dashboard's own pages only, and never able to run script of its own.
      ...(view
        ? {
            'Content-Security-Policy': `default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'${shown === 'application/pdf' ? '' : '; sandbox'}`,
            'X-Frame-Options': 'SAMEORIGIN',
          }
        : {}),
      'X-Request-Id': requestIdOf(c),
    },
  });
}

/**
 * C30: an attachment's name: `filename` in ASCII for tools that read only it (curl -J), and
 * `filename*` with the real name in UTF-8, percent-encoded but for RFC 8187's attr-chars.
 */
export function contentDisposition(
  filename: string,
  disposition: 'attachment' | 'inline' = 'attachment',
): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  // encodeURIComponent leaves ' ( ) * as they are, which attr-char does not allow.
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
