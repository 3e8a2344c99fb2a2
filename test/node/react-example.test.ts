// The React example's printed address (npm run example:react -- --serve) posts to the running
// `npm run dev`, whatever port it serves on: the dev server keeps its address beside the key.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLine } from '../../examples/react/build.ts';

const KEY = 'edgeform_pk_example000000000000000000000';

describe('npm run example:react -- --serve', () => {
  it("names the dev server's submit path when it is not the page's own", () => {
    expect(openLine('http://127.0.0.1:8000', KEY, 'http://127.0.0.1:8799')).toBe(
      `Open http://127.0.0.1:8000/?key=${KEY}&endpoint=${encodeURIComponent('http://127.0.0.1:8799/api/v1/submit')}`,
    );
  });

  it("says nothing more on the page's own address, and what to do without a key", () => {
    const page = readFileSync(join(import.meta.dirname, '../../examples/react/index.html'), 'utf8');
    const own = /data-endpoint="([^"]+)\/api\/v1\/submit"/.exec(page)?.[1] ?? '';
    expect(openLine('http://127.0.0.1:8000', KEY, own)).toBe(`Open http://127.0.0.1:8000/?key=${KEY}`);
    expect(openLine('http://127.0.0.1:8000', KEY, '')).toBe(`Open http://127.0.0.1:8000/?key=${KEY}`);
    expect(openLine('http://127.0.0.1:8000', '', 'http://localhost:8787')).toContain(
      'npm run dev is not running yet?',
    );
  });
});
