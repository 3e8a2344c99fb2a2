// C40: the widget's form analytics: a view, each field's first touch, the time to submit and a
// leave, sent as beacons beside the form's endpoint, never slowing or breaking the form, and
// nothing at all from a visitor who asked not to be tracked. Bundled into /widget.js.
/** A form's control, by the name it submits under. */
type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** C40: where a form's analytics go, and what names the form there (its key, or its form id). */
export type Tracker = { url: string; id: { key: string } | { form: string } };

const EVENTS_PATH = '/api/v1/events';
const FORM_ACTION = /\/f\/(f_[a-z0-9]{4,32})$/;

/**
 * C40: the analytics endpoint for a form: beside its endpoint (a form with a key), or beside its
 * action (a plain HTML form posting to `/f/<form-id>` of the widget's own origin). None for a form
 * marked `data-analytics="off"`, unless `evenOff` (C39: the widget's token is asked for there too).
 */
export function trackerOf(
  form: HTMLFormElement,
  widgetOrigin?: string,
  evenOff = false,
): Tracker | undefined {
  if (form.dataset.analytics === 'off' && !evenOff) return undefined;
  const { endpoint, key } = form.dataset;
  try {
    if (endpoint && key) return { url: new URL(EVENTS_PATH, endpoint).href, id: { key } };
    const action = new URL(form.getAttribute('action') ?? '', document.baseURI);
    const formId = FORM_ACTION.exec(action.pathname)?.[1];
    if (formId === undefined || (widgetOrigin !== undefined && action.origin !== widgetOrigin))
      return undefined;
    return { url: new URL(EVENTS_PATH, action).href, id: { form: formId } };
  } catch {
    return undefined;
  }
}

/** A visitor who asked not to be tracked (Global Privacy Control, Do Not Track) sends nothing. */
function declined(): boolean {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  return nav.globalPrivacyControl === true || nav.doNotTrack === '1';
}

/** One event, sent so that it never slows or breaks the form: a failure is dropped silently. */
function beacon(tracker: Tracker, event: { type: string; field?: string; ms?: number }): void {
  const body = JSON.stringify({ ...tracker.id, ...event });
  try {
    // text/plain: no preflight, and no cookie is ever set by the service to send back.
    if (navigator.sendBeacon?.(tracker.url, new Blob([body], { type: 'text/plain' }))) return;
    fetch(tracker.url, { method: 'POST', body, keepalive: true, credentials: 'omit' }).catch(() => {});
  } catch {
    // Nothing to do: analytics never get in the form's way.
  }
}

/**
 * C40: a view when the form is first on screen, a start at the first input, the last field touched
 * and the time spent when a started form is left unsent (the page hidden or closed), and the time
 * to a submission. Nothing is stored in the browser.
 */
export function track(form: HTMLFormElement, tracker: Tracker): void {
  if (declined()) return;
  let startedAt: number | undefined;
  let lastField: string | undefined;
  let submitted = false;
  const send = (type: string, extra: { field?: string; ms?: number } = {}) =>
    beacon(tracker, { type, ...extra });
  const since = () => Math.max(0, Math.round(Date.now() - (startedAt ?? Date.now())));
  if (typeof IntersectionObserver === 'function') {
    const seen = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      seen.disconnect();
      send('view');
    });
    seen.observe(form);
  } else send('view');
  const touched = (event: Event) => {
    const name = (event.target as Partial<Control> | null)?.name;
    if (name) lastField = name;
  };
  form.addEventListener('focusin', touched);
  const onInput = (event: Event) => {
    touched(event);
    if (startedAt !== undefined) return;
    startedAt = Date.now();
    send('start');
  };
  form.addEventListener('input', onInput);
  form.addEventListener('change', onInput);
  const done = () => {
    if (submitted) return;
    submitted = true;
    send('submit', { ms: since() });
  };
  // A form the widget sends counts once it is accepted; a plain form, when it leaves the page.
  if (form.dataset.endpoint) form.addEventListener('forms:success', done);
  else form.addEventListener('submit', done);
  const leave = () => {
    if (startedAt === undefined || submitted) return;
    send('leave', { ...(lastField ? { field: lastField } : {}), ms: since() });
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') leave();
  });
  window.addEventListener('pagehide', leave);
}
