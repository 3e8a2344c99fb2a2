// C30 + C33: a submission's files as the dashboard shows them, through the management API: a
// picture or a PDF inline, under a policy that runs no script; anything else, and every
// script-capable type above all, only as bytes to download.
import { describe, expect, it } from 'vitest';
import { api, newProject, ok, problem, upload } from './helpers.ts';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const SVG = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
);
const TEXT = new TextEncoder().encode('plain words\n');

describe('C30 + C33: files in the dashboard', () => {
  it('C33: a picture and a PDF are shown inline without script; SVG and text are downloads', async () => {
    const file = (name: string, accept: string[]) => ({
      name,
      type: 'file',
      rules: { accept, maxSize: '1MB' },
    });
    const p = await newProject([
      { name: 'email', type: 'string' },
      file('photo', ['image/*']),
      file('cv', ['application/pdf']),
      file('drawing', ['image/svg+xml']),
      file('notes', ['text/plain']),
    ]);
    await upload(p.formId, 'photo', PNG, 'me.png', 'image/png');
    await upload(p.formId, 'cv', PDF, 'cv.pdf', 'application/pdf');
    await upload(p.formId, 'drawing', SVG, 'x.svg', 'image/svg+xml');
    await upload(p.formId, 'notes', TEXT, 'notes.txt', 'text/plain');
    const { submissions } = await ok<{ submissions: { id: string; files: string[] }[] }>(
      await api('GET', `/projects/${p.projectId}/submissions?files=true`),
    );
    const byField = (field: string) => submissions.find((s) => s.files.includes(field))?.id ?? '';
    const view = (field: string) =>
      api('GET', `/projects/${p.projectId}/submissions/${byField(field)}/files/${field}`);

    const photo = await view('photo');
    expect(photo.status).toBe(200);
    expect(photo.headers.get('Content-Type')).toBe('image/png');
    expect(photo.headers.get('Content-Disposition')).toMatch(/^inline; /);
    expect(photo.headers.get('Content-Security-Policy')).toContain('sandbox');
    expect(new Uint8Array(await photo.arrayBuffer())).toEqual(PNG);

    const pdf = await view('cv');
    expect(pdf.headers.get('Content-Type')).toBe('application/pdf');
    expect(pdf.headers.get('Content-Disposition')).toMatch(/^inline; /);
    expect(pdf.headers.get('Content-Security-Policy')).toContain("default-src 'none'");
    expect(pdf.headers.get('X-Frame-Options')).toBe('SAMEORIGIN');

    for (const field of ['drawing', 'notes']) {
      const res = await view(field);
      expect(res.headers.get('Content-Disposition')).toMatch(/^attachment; /);
      expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    }
    expect((await view('drawing')).headers.get('Content-Type')).toBe('application/octet-stream');

    expect(
      await problem(
        await api('GET', `/projects/${p.projectId}/submissions/${byField('photo')}/files/cv`),
        404,
      ),
    ).toBe("No file in field 'cv' of this submission");
    // A publishable key sees none of it.
    expect(
      (
        await api('GET', `/projects/${p.projectId}/submissions/${byField('photo')}/files/photo`, {
          token: p.apiKey,
        })
      ).status,
    ).toBe(403);
  });
});
