// C33: an audit entry's detail as a person reads it: each member `name: value`, a list's items
// joined by commas, a member of a member named by its path (`page.title: …`), nothing left as JSON.
// Whatever the detail holds is shown as text (Preact escapes it): never markup.

/** The longest a detail is shown; the rest is cut with an ellipsis. */
const MAX_DETAIL = 300;

function valueText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') {
    // A setting kept as JSON text (a list of countries, of block-list entries) reads as its values.
    if (/^[[{]/.test(value)) {
      try {
        return valueText(JSON.parse(value));
      } catch {
        return value;
      }
    }
    return value === '' ? '""' : value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(valueText).join(', ');
  // An object in a list: its members in brackets.
  const inner: string[] = [];
  parts(value, '', inner);
  return `(${inner.join(', ')})`;
}

function parts(value: unknown, path: string, out: string[]): void {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0 && path !== '') out.push(`${path}: none`);
    for (const [k, v] of entries) parts(v, path === '' ? k : `${path}.${k}`, out);
    return;
  }
  out.push(path === '' ? valueText(value) : `${path}: ${valueText(value)}`);
}

export function detailText(detail: unknown): string {
  if (detail === null || detail === undefined) return '';
  const out: string[] = [];
  parts(detail, '', out);
  const text = out.join(' · ');
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 1)}…` : text;
}
