// The widget's words on a form: its live status line (sending, sent, refused) and each field's
// message beside its field, marked invalid and described by it. widget.js uses them for a post's
// answer, and C46's steps (steps.ts) for a step's own check, so that both say it the same way.

export function ui(form: HTMLFormElement) {
  let live = form.querySelector<HTMLElement>('[data-forms-status]');
  if (!live) {
    live = document.createElement('p');
    live.setAttribute('data-forms-status', '');
    form.prepend(live);
  }
  live.setAttribute('role', 'status');
  live.setAttribute('aria-live', 'polite');
  const status = live;

  const clear = () => {
    status.textContent = '';
    status.removeAttribute('data-state');
    for (const note of Array.from(form.querySelectorAll('[data-forms-error]'))) note.remove();
    for (const field of Array.from(form.querySelectorAll('[aria-invalid]'))) {
      field.removeAttribute('aria-invalid');
      field.removeAttribute('aria-describedby');
    }
  };

  const fieldError = (name: string, message: string): boolean => {
    const field = form.elements.namedItem(name);
    if (!(field instanceof HTMLElement)) return false;
    // C28: a field may break several rules: one note per field, its messages one after another
    // (sentences, as the catalogue words them, one after another; the worker's texts with `;`).
    const existing = form.querySelector<HTMLElement>(`[data-forms-error="${CSS.escape(name)}"]`);
    if (existing) {
      const text = existing.textContent ?? '';
      existing.textContent = `${text}${/[.!?。]$/.test(text) ? ' ' : '; '}${message}`;
      return true;
    }
    const note = document.createElement('span');
    note.id = `forms-error-${name}`;
    note.setAttribute('data-forms-error', name);
    note.textContent = message;
    field.setAttribute('aria-invalid', 'true');
    field.setAttribute('aria-describedby', note.id);
    // After the control, or after the label that wraps it (a checkbox): never inside the label,
    // between the box and its text.
    (field.closest('label') ?? field).after(note);
    return true;
  };

  const show = (state: 'success' | 'error' | 'sending', text: string) => {
    status.setAttribute('data-state', state);
    status.textContent = text;
  };
  return { clear, fieldError, show };
}
