// The formatter of the message catalogue (messages.ts), small enough for the browser widget to carry
// beside one language's templates, fetched as JSON. A template is text with placeholders:
//   {min}                 a parameter: a number in the language's digits, a list joined by "or"
//   {values:“#”}          each item (or the value) put in place of #, then listed
//   {max:size}            bytes as the language writes a size: 500 bytes, 12.5 kB, 5 MB
//   {min:one=# character|other=# characters}
//                         the first option whose key is the value (an absent value is the key ''),
//                         else the value's plural category (Intl.PluralRules), else `other`; # is
//                         the value as above
// `{label}` is the field's label, given apart from the parameters.

type Params = Record<string, unknown> | undefined;

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'];

const show = (value: unknown, lang: string): string =>
  typeof value === 'number' ? new Intl.NumberFormat(lang).format(value) : value == null ? '' : String(value);

/** Bytes in decimal units (5 MB is 5,000,000 bytes, as the fields' `maxSize` counts), never rounded up. */
function size(bytes: number, lang: string): string {
  let unit = 0;
  while (bytes >= 1000 && unit < UNITS.length - 1) {
    bytes /= 1000;
    unit++;
  }
  return new Intl.NumberFormat(lang, {
    style: 'unit',
    unit: UNITS[unit] ?? 'byte',
    unitDisplay: unit ? 'short' : 'long',
    maximumFractionDigits: 1,
    roundingMode: 'floor',
  }).format(bytes);
}

function choose(options: string, value: unknown, lang: string): string {
  const table = new Map(options.split('|').map((option) => option.split(/=(.*)/s) as [string, string]));
  const category = typeof value === 'number' ? new Intl.PluralRules(lang).select(value) : 'other';
  const text =
    table.get(value == null ? '' : String(value)) ?? table.get(category) ?? table.get('other') ?? '';
  return text.replace(/#/g, () => show(value, lang));
}

/** Fills a template of the catalogue in `lang` (a BCP 47 tag) with an issue's parameters and the field's label. */
export function fill(template: string, params: Params, lang: string, label?: string): string {
  return template.replace(/\{(\w+)(?::([^{}]*))?\}/g, (_, name: string, option?: string) => {
    const value = name === 'label' ? label : params?.[name];
    if (option === 'size') return size(Number(value), lang);
    if (option?.includes('=')) return choose(option, value, lang);
    const one = (item: unknown) => (option ? option.replace(/#/g, () => show(item, lang)) : show(item, lang));
    if (!Array.isArray(value)) return value == null ? '' : one(value);
    const items = value.map(one);
    return Intl.ListFormat
      ? new Intl.ListFormat(lang, { type: 'disjunction' }).format(items)
      : items.join(', ');
  });
}
