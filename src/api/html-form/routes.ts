// C29: `POST /f/<form-id>`, for HTML forms without a script: the acceptance pipeline (C5) with a
// form address and an urlencoded or multipart body, each value converted by its field's type and
// then validated exactly as the JSON endpoint validates (C12, C13, C28); files (C30) go to R2
// before the submission's one D1 write. The answer is a 303 to the form's `_next` or the project's
// thank-you URL (only ever on an allowed origin), or a small built-in page; with `Accept:
// application/json`, the JSON envelope instead.
import type { Context } from 'hono';
import type { HonoBase } from 'hono/hono-base';
import { acceptSubmission, type Intake, type Progress } from '../../accept/pipeline.ts';
import { clientAddress, countFailedAuthentication, mayLookUpKeys } from '../../auth/rate-limit.ts';
import { config } from '../../config.ts';
import { maxSizeError } from '../../fields/rules.ts';
import { describeRoute, pagePath } from '../../http/contract.ts';
import type { AppEnv } from '../../http/env.ts';
import { ApiError, REASON_PHRASES } from '../../http/envelope.ts';
import { REPLAYED_HEADER } from '../../http/headers.ts';
import { PAGE_HEADERS } from '../../http/html-page.ts';
import { formMediaType } from '../../http/media-type.ts';
import * as replies from '../../http/replies.ts';
import {
  created,
  fileTooLarge,
  formNotFound,
  notAForm,
  redirectNotAllowed,
  tooLarge,
  tooManyRequests,
  unavailable,
  uploadTooLarge,
} from '../../http/replies.ts';
import { requestIdOf } from '../../http/request-id.ts';
import { send } from '../../http/send.ts';
import { UnavailableError } from '../../lib/faults.ts';
import { allowedRedirect } from '../../lib/urls.ts';
import { FORM_ID, formCacheKey, type ResolvedProject, resolveForm } from '../../projects/cache.ts';
import { FileTooLarge, type FormLimits, readForm } from './body.ts';
import { type Controls, convertForm } from './convert.ts';
import { fromPage, hostedPageRoutes } from './hosted.ts';
import { formDescription } from './operation.ts';
import { errorPage, thankYouPage } from './pages.ts';

export const FORM_PREFIX = '/f/';
export const FORM_PATH = `${FORM_PREFIX}:formId`;

type FormContext = Context<AppEnv>;

/** C29: the page's origin, by `Origin`, else by `Referer` (a form posted from a page sends one). */
function requestOrigin(c: FormContext): string | undefined {
  const origin = c.req.header('Origin');
  if (origin !== undefined && origin !== 'null') return origin;
  const referer = c.req.header('Referer');
  if (referer === undefined) return origin;
  try {
    return new URL(referer).origin;
  } catch {
    return origin;
  }
}

/** The limits of this project's form: a file within its largest `maxSize` (C30), all within the total. */
function limitsOf(project: ResolvedProject, env: Env): FormLimits & { fileField?: string } {
  const settings = config(env);
  const total = settings.MAX_UPLOAD_BYTES;
  const files = project.fields.filter((f) => f.type === 'file');
  const sizes = files.map((f) => Math.min(f.rules?.maxSize ?? total, total));
  const fileBytes = sizes.length === 0 ? 0 : Math.max(...sizes);
  const largest = files.filter((_, i) => sizes[i] === fileBytes);
  return {
    textBytes: settings.MAX_BODY_BYTES,
    fileBytes,
    totalFileBytes: files.length === 0 ? 0 : total,
    ...(largest.length === 1 && largest[0] !== undefined ? { fileField: largest[0].name } : {}),
  };
}

// C18: pages and redirects carry the request id too, as every reply does.
function redirect(c: FormContext, url: string): Response {
  return new Response(null, {
    status: 303,
    headers: { Location: url, 'Cache-Control': 'no-store', 'X-Request-Id': requestIdOf(c) },
  });
}

function htmlPage(
  c: FormContext,
  status: number,
  html: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(html, {
    status,
    headers: { ...PAGE_HEADERS, 'X-Request-Id': requestIdOf(c), ...headers },
  });
}

const wantsJson = (c: FormContext) => /\bapplication\/json\b/i.test(c.req.header('Accept') ?? '');

/**
 * A form address, and an HTML form's body. `controls` receives the form's `_next`, `_error` and
 * `_gotcha` (C29), which the answer needs.
 */
function formIntake(formId: string, controls: Controls): Intake<'urlencoded' | 'multipart'> {
  return {
    // C21, C29: an unknown form address counts as a failed authentication of the client's address,
    // as an unknown key does; past that limit, made-up addresses cost no D1 query.
    async identify(c) {
      const project = FORM_ID.test(formId)
        ? await resolveForm(c.env, formId, config(c.env).CONFIG_CACHE_SECONDS, () => {
            if (!mayLookUpKeys(clientAddress(c))) throw tooManyRequests();
          })
        : undefined;
      if (project === undefined) {
        await countFailedAuthentication(c, c.env);
        throw formNotFound();
      }
      // C21: per form (as per publishable key), which every visitor of the form shares; the
      // project is cached under the form's own key.
      const cacheKey = formCacheKey(formId);
      return { project, cacheKey, payer: { rateKey: cacheKey, shared: true, projectId: project.id } };
    },
    origin: requestOrigin,
    mediaType(c) {
      const kind = formMediaType(c.req.header('Content-Type'));
      if (kind === undefined) throw notAForm();
      return kind;
    },
    async read(c, project, kind) {
      const limits = limitsOf(project, c.env);
      let entries: Awaited<ReturnType<typeof readForm>>;
      try {
        entries = await readForm(c.req.raw, kind, limits);
      } catch (error) {
        if (!(error instanceof FileTooLarge)) throw error;
        if (error.limit === 'total' || limits.fileBytes === limits.totalFileBytes) {
          throw uploadTooLarge(limits.totalFileBytes);
        }
        throw limits.fileField === undefined
          ? tooLarge(limits.fileBytes)
          : fileTooLarge(maxSizeError(limits.fileField, limits.fileBytes));
      }
      const converted = await convertForm(entries, project.fields);
      Object.assign(controls, converted.controls);
      // The redirects the form asks for are checked before anything is stored.
      for (const [name, target] of [
        ['_next', controls.next],
        ['_error', controls.error],
      ] as const) {
        if (target !== undefined && target !== '' && allowedRedirect(target, project.origins) === undefined) {
          // Not an _error redirect to a refused target.
          if (name === '_error') delete controls.error;
          throw redirectNotAllowed(name);
        }
      }
      return {
        body: converted.body,
        problems: converted.problems,
        spam: controls.gotcha !== undefined && controls.gotcha !== '',
      };
    },
  };
}

async function handleForm(c: FormContext): Promise<Response> {
  const formId = c.req.param('formId') ?? '';
  const json = wantsJson(c);
  const controls: Controls = {};
  const progress: Progress = {};
  const referer = c.req.header('Referer');
  let replayed: boolean;
  try {
    ({ replayed } = await acceptSubmission(c, formIntake(formId, controls), progress));
  } catch (error) {
    const reply =
      // A project deleted while its form was cached: the form is gone (C31), not a key.
      error instanceof ApiError
        ? error.status === 401
          ? formNotFound()
          : error
        : error instanceof UnavailableError
          ? unavailable()
          : undefined;
    // Anything else is a fault of ours: the error handler logs it and answers 500.
    if (reply === undefined) throw error;
    if (json) throw reply;
    const envelope = reply.toEnvelope();
    const status = envelope.status.code;
    const back =
      progress.project === undefined ? undefined : allowedRedirect(controls.error, progress.project.origins);
    if (back !== undefined) return redirect(c, back);
    const messages = envelope.data.errors ?? [envelope.data.error?.message ?? envelope.data.message];
    const issues = envelope.data.issues;
    const code = envelope.data.error?.code;
    const hosted = await fromPage(
      c,
      formId,
      {
        sent: false,
        status,
        messages,
        ...(issues === undefined ? {} : { issues }),
        ...(code === undefined ? {} : { code }),
      },
      reply.headers,
    );
    return hosted ?? htmlPage(c, status, errorPage(REASON_PHRASES[status], messages, referer), reply.headers);
  }
  if (json) return send(c, created(), replayed ? { [REPLAYED_HEADER]: 'true' } : {});
  const project = progress.project as ResolvedProject;
  const next =
    allowedRedirect(controls.next, project.origins) ?? allowedRedirect(project.thankYouUrl, project.origins);
  if (next !== undefined) return redirect(c, next);
  return (await fromPage(c, formId, { sent: true })) ?? htmlPage(c, 200, thankYouPage(referer));
}

const formIdParameter = {
  name: 'formId',
  in: 'path' as const,
  required: true,
  description: "The project's form address, printed by `forms project create` and `project show`.",
  schema: { type: 'string' as const, pattern: FORM_ID.source },
};

const FORM_TAG = 'HTML forms (no key)';

const formOperation = describeRoute(() => formDescription(FORM_TAG, formIdParameter));

/** C16: a form address takes GET (its page) and POST: any other method is 405, naming both. */
function refuseMethod(c: Context): Response {
  const reply = replies.methodNotAllowed(c.req.method);
  return send(c, reply.toEnvelope(), { ...reply.headers, Allow: 'GET, POST, OPTIONS' });
}

export function formRoutes(app: HonoBase<AppEnv>): void {
  app.post(FORM_PATH, formOperation, handleForm);
  hostedPageRoutes(app, FORM_PATH, formIdParameter, FORM_TAG);
  // C16: as the submit path, its other methods are 405.
  pagePath(
    app,
    FORM_PATH,
    FORM_TAG,
    'formPreflight',
    [formIdParameter],
    ['PUT', 'PATCH', 'DELETE'],
    refuseMethod,
  );
}
