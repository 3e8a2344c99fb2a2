// C33: the embed screen's snippets: every value from the project escaped; validation attributes
// from the rules; `pattern` only where a browser and the server's RE2 agree (property-based, with
// re2js as the server runs it and the browser's RegExp as a browser compiles the attribute).
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { type EmbedProject, plainForm, widgetForm } from '../../dashboard/embed.ts';
import { browserPattern, type ControlField, escapeHtml } from '../../src/fields/form-html.ts';
import { renderPage } from '../../src/pages/render.ts';

const project = (fields: EmbedProject['fields'], extra: Partial<EmbedProject> = {}): EmbedProject => ({
  formId: 'f_abc',
  honeypot: null,
  turnstile: false,
  fields,
  ...extra,
});

describe('C33: embed snippets', () => {
  it('C33: controls carry the attributes their rules allow', () => {
    const html = plainForm(
      project([
        { name: 'email', type: 'string', required: true, rules: { format: 'email', maxLength: 100 } },
        { name: 'age', type: 'integer', required: false, rules: { min: 18, max: 130 } },
        { name: 'site', type: 'string', required: false, rules: { format: 'url' } },
        { name: 'topic', type: 'string', required: true, rules: { oneOf: ['sales', 'support'] } },
        { name: 'code', type: 'string', required: false, rules: { pattern: '^[A-Z]{3}-\\d{4}$' } },
        { name: 'loose', type: 'string', required: false, rules: { pattern: '[A-Z]{3}' } },
        { name: 'cv', type: 'file', required: false, rules: { accept: ['application/pdf', 'image/*'] } },
        { name: 'ok', type: 'boolean', required: true },
      ]),
      'https://forms.example',
    );
    expect(html).toContain('action="https://forms.example/f/f_abc" enctype="multipart/form-data"');
    expect(html).toContain(
      '<input type="email" id="f-email" name="email" required autocomplete="email" maxlength="100">',
    );
    expect(html).toContain('<input type="number" id="f-age" name="age" step="1" min="18" max="130">');
    expect(html).toContain('<input type="url" id="f-site" name="site">');
    expect(html).toContain(
      '<select id="f-topic" name="topic" required><option value="">Choose…</option><option>sales</option><option>support</option></select>',
    );
    expect(html).toContain('pattern="[A-Z]{3}-\\d{4}"');
    // Found anywhere by the server, matched whole by a browser: not the same rule, so left out.
    expect(html).toContain('<input id="f-loose" name="loose">');
    expect(html).toContain('<input type="file" id="f-cv" name="cv" accept="application/pdf,image/*">');
    expect(html).toContain('<label><input type="checkbox" id="f-ok" name="ok"> Ok</label>');
  });

  it('C44 + C33: a text field takes several lines when its owner says, else when it allows over 200 characters; a list never', () => {
    const html = plainForm(
      project([
        { name: 'short', type: 'string', required: false, multiline: true },
        { name: 'long', type: 'string', required: false, rules: { maxLength: 5000 }, multiline: false },
        { name: 'auto201', type: 'string', required: false, rules: { maxLength: 201 } },
        { name: 'auto200', type: 'string', required: false, rules: { maxLength: 200 } },
        { name: 'pick', type: 'string', required: false, rules: { oneOf: ['a'] }, multiline: true },
        { name: 'n', type: 'integer', required: false, multiline: true },
      ]),
      'https://forms.example',
    );
    expect(html).toContain('<textarea id="f-short" name="short" rows="4"></textarea>');
    expect(html).toContain('<input id="f-long" name="long" maxlength="5000">');
    expect(html).toContain('<textarea id="f-auto201" name="auto201" maxlength="201" rows="4"></textarea>');
    expect(html).toContain('<input id="f-auto200" name="auto200" maxlength="200">');
    expect(html).toContain('<select id="f-pick" name="pick">');
    expect(html).toContain('<input type="number" id="f-n" name="n" step="1">');
  });

  it('C45: a captured field is a hidden input the page fills, with no label: never a control a person sees', () => {
    const html = plainForm(
      project([
        { name: 'source', type: 'string', required: false, capture: 'utm_source', rules: { maxLength: 500 } },
      ]),
      'https://forms.example',
    );
    expect(html).toContain('<input type="hidden" id="f-source" name="source" data-capture="utm_source">');
    expect(html).not.toContain('for="f-source"');
  });

  it('C44 + C33: a control shows the label, help and placeholder set for the field, in both forms', () => {
    const p = project([
      {
        name: 'email',
        type: 'string',
        required: true,
        label: { en: 'Your email', de: 'Ihre E-Mail' },
        help: { en: 'We answer within a day' },
        placeholder: { en: 'ada@example.com' },
      },
      { name: 'first_name', type: 'string', required: false },
    ]);
    for (const html of [
      plainForm(p, 'https://forms.example.com'),
      widgetForm(p, 'https://forms.example.com', 'edgeform_pk_x'),
    ]) {
      expect(html).toContain('<label for="f-email">Your email</label>');
      expect(html).toContain('We answer within a day</small>');
      expect(html).toContain('placeholder="ada@example.com"');
      expect(html).not.toContain('>Email<');
      // A field without a label: its name as words.
      expect(html).toContain('<label for="f-first_name">First name</label>');
    }
  });

  it('C22 + C33: the honeypot is hidden from people and the keyboard; Turnstile has its placeholder, in both forms', () => {
    const guarded = project([{ name: 'email', type: 'string', required: false }], {
      honeypot: 'website',
      turnstile: true,
    });
    for (const html of [
      plainForm(guarded, 'https://f.example'),
      widgetForm(guarded, 'https://f.example', 'k'),
    ]) {
      expect(html).toContain(
        '<input name="website" tabindex="-1" autocomplete="off" aria-hidden="true" hidden>',
      );
      expect(html).toContain('data-sitekey="YOUR_TURNSTILE_SITE_KEY"');
      expect(html).toContain('src="https://challenges.cloudflare.com/turnstile/v0/api.js"');
    }
  });

  it('C30 + C33: the widget form of a project with files posts them to the form address; without, JSON only', () => {
    const cv = { name: 'cv', type: 'file' as const, required: true, rules: { accept: ['application/pdf'] } };
    const name = { name: 'name', type: 'string' as const, required: true };
    const withFiles = widgetForm(project([name, cv]), 'https://f.example', 'k');
    expect(withFiles).toContain(
      'method="post" action="https://f.example/f/f_abc" enctype="multipart/form-data" novalidate>',
    );
    expect(withFiles).toContain('<input type="file" id="f-cv" name="cv" required accept="application/pdf">');
    const without = widgetForm(project([name]), 'https://f.example', 'k');
    expect(without).not.toContain('action=');
    expect(without).toContain('data-endpoint="https://f.example/api/v1/submit"');
  });

  it('C33 (property): a field name or choice from the project never breaks out of its attribute or element', () => {
    const count = (html: string) => [...'<>"'].map((ch) => html.split(ch).length);
    const snippets = (name: string, choice: string) => {
      const fields = [{ name, type: 'string' as const, required: false, rules: { oneOf: [choice] } }];
      return [
        plainForm(project(fields), 'https://f.example'),
        widgetForm(project(fields), 'https://f.example', 'k'),
      ];
    };
    const benign = snippets('n', 'c');
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (name, choice) => {
        for (const [i, html] of snippets(name, choice).entries()) {
          expect(html).toContain(`name="${escapeHtml(name)}"`);
          expect(html).toContain(`<option>${escapeHtml(choice)}</option>`);
          // As many tags and quotes as with harmless values: none came from the values.
          expect(count(html)).toEqual(count(benign[i] ?? ''));
        }
      }),
    );
  });

  it('C33: a pattern reaching past what both read alike is left to the server', () => {
    for (const pattern of [
      '^a.b$',
      '^\\s+$',
      '^\\bx$',
      '^(?i)abc$',
      '^\\p{L}+$',
      '^a(?=b)$',
      'abc',
      '^abc',
      'abc$',
      '^x\\$',
    ]) {
      expect(browserPattern(pattern), pattern).toBeUndefined();
    }
    expect(browserPattern('^[a-z0-9_]{3,16}$')).toBe('[a-z0-9_]{3,16}');
    expect(browserPattern('^(?:ab|cd)+\\d?$')).toBe('(?:ab|cd)+\\d?');
  });

  it('C33 (property): where the pattern attribute is written, a browser and RE2 accept the same values', () => {
    const atom = fc.constantFrom(
      'a',
      'b',
      'Z',
      '0',
      '7',
      '_',
      '-',
      '\\d',
      '\\w',
      '\\W',
      '[a-c]',
      '[^a]',
      '[0-9_]',
      '\\.',
      ' ',
    );
    const quantifier = fc.constantFrom('', '?', '*', '+', '{2}', '{1,3}', '+?');
    const piece = fc.tuple(atom, quantifier).map(([a, q]) => a + q);
    const seq = fc.array(piece, { minLength: 1, maxLength: 4 }).map((p) => p.join(''));
    const inner = fc.oneof(
      seq,
      fc.tuple(seq, seq).map(([x, y]) => `(?:${x}|${y})`),
      fc.tuple(seq, seq).map(([x, y]) => `(${x})${y}`),
    );
    const value = fc.string({
      unit: fc.constantFrom('a', 'b', 'c', 'Z', '0', '7', '_', '-', '.', ' ', 'é', '\n'),
      maxLength: 8,
    });
    fc.assert(
      fc.property(inner, fc.array(value, { minLength: 1, maxLength: 20 }), (body, values) => {
        const pattern = `^${body}$`;
        const forBrowser = browserPattern(pattern);
        if (forBrowser === undefined) return;
        const server = RE2JS.compile(pattern);
        const browser = new RegExp(`^(?:${forBrowser})$`, 'v');
        for (const v of values)
          expect(browser.test(v), `${pattern} on ${JSON.stringify(v)}`).toBe(server.matcher(v).find());
      }),
      { numRuns: 500 },
    );
  });
});

describe('C45: conditions and prefill in the markup', () => {
  const business = { name: 'business', type: 'boolean' as const, required: false };
  const company = {
    name: 'company',
    type: 'string' as const,
    required: true,
    when: { field: 'business', equals: true },
  };
  const cv = {
    name: 'cv',
    type: 'file' as const,
    required: false,
    when: { field: 'business', filled: true },
  };

  it('a control of a field with a condition carries it (data-when, escaped JSON), in both snippets; others none', () => {
    for (const html of [
      plainForm(project([business, company, cv]), 'https://f.example'),
      widgetForm(project([business, company, cv]), 'https://f.example', 'k'),
    ]) {
      expect(html).toContain(
        '<input id="f-company" name="company" data-when="{&quot;field&quot;:&quot;business&quot;,&quot;equals&quot;:true}" data-required>',
      );
      // Required when it applies, which the browser cannot know: the worker asks for it then.
      expect(html).not.toMatch(/\srequired[\s>]/);
      // Required whenever it applies: marked for the widget, which says so while it shows.
      expect(html).toContain('data-required>');
      expect(html).toContain('<label for="f-company">Company</label>');
      expect(html).toContain(
        '<input type="file" id="f-cv" name="cv" data-when="{&quot;field&quot;:&quot;business&quot;,&quot;filled&quot;:true}">',
      );
      expect(html).toContain(
        '<label><input type="checkbox" id="f-business" name="business"> Business</label>',
      );
      // Nothing is hidden by the markup: with scripts off every field shows, and the worker decides.
      expect(html).not.toMatch(/\shidden[\s>]|disabled/);
    }
    expect(plainForm(project([business]), 'https://f.example')).not.toContain('data-when');
  });

  const page = (fields: ControlField[]) =>
    renderPage({
      origin: 'https://forms.example',
      formId: 'f_abc',
      projectName: 'Shop',
      lang: 'en',
      languages: ['en'],
      title: undefined,
      intro: undefined,
      thanks: undefined,
      accent: '#1f5fbf',
      theme: 'auto',
      logo: undefined,
      honeypot: 'website',
      fields: fields.map((field) => ({ field, shown: {} })),
    });

  it('the hosted page lists the fields its address may fill (never a file, never the honeypot), and fetches the conditions’ script beside the widget only when a field has one', async () => {
    const { html, csp } = await page([business, company, cv]);
    expect(html).toContain('data-prefill="business company">');
    expect(html).toContain('data-when="{&quot;field&quot;:&quot;business&quot;,&quot;equals&quot;:true}"');
    expect(html).toContain(
      '<link rel="modulepreload" href="https://forms.example/widget/logic.js"><script src="https://forms.example/widget.js" defer></script>',
    );
    // Of the page's own origin, which its policy allows.
    expect(csp).toContain("script-src 'self'");
    const plain = await page([business, { ...company, when: undefined }]);
    expect(plain.html).toContain('data-prefill="business company">');
    expect(plain.html).not.toContain('logic.js');
    expect(plain.html).not.toContain('data-when');
    // A captured field needs the same script to be filled: fetched beside the widget too.
    const captured = await page([
      business,
      { name: 'source', type: 'string', required: false, capture: 'utm_source' },
    ]);
    expect(captured.html).toContain(
      '<input type="hidden" id="f-source" name="source" data-capture="utm_source">',
    );
    expect(captured.html).toContain(
      '<link rel="modulepreload" href="https://forms.example/widget/logic.js">',
    );
    // Never a person's to fill from the query: it is not in the prefill list.
    expect(captured.html).toContain('data-prefill="business">');
  });
});
