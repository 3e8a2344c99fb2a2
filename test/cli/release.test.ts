// C42: `npm run release` in a repository of its own: the next version, CHANGELOG.md's notes made
// the release's with every migration since the last named (and whether going back over it is
// safe), one commit and an annotated tag; nothing from a dirty tree or to an older version.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nextVersion, releasedChangelog } from '../../scripts/release.ts';
import { runProcess, tempDir } from './helpers.ts';

const ROOT = join(import.meta.dirname, '../..');

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

function repository(files: Record<string, string>): string {
  const dir = tempDir('release');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, '-c', 'user.email=t@example.com', '-c', 'user.name=T', 'add', '-A');
  git(dir, '-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-q', '-m', 'start');
  return dir;
}

const FILES = {
  'package.json': '{\n  "name": "edge-forms",\n  "version": "0.1.0"\n}\n',
  'package-lock.json': `${JSON.stringify({ name: 'edge-forms', version: '0.1.0', lockfileVersion: 3, packages: { '': { name: 'edge-forms', version: '0.1.0' } } }, null, 2)}\n`,
  'CHANGELOG.md':
    '# Changes\n\n## Unreleased\n\n- `0001_b.sql`: b beside a.\n\n## v0.1.0 (aaaaaaa, 2026-11-28)\n\n- `0000_a.sql`\n',
  'schema/migrations/0000_a.sql': '-- expand\nCREATE TABLE a (x text);\n',
  'schema/migrations/0001_b.sql': '-- expand\nCREATE TABLE b (y text);\n',
  'schema/migrations/0002_c.sql': '-- contract: after v0.1.0\nDROP TABLE a;\n',
};

const release = (cwd: string, ...args: string[]) =>
  runProcess(process.execPath, [join(ROOT, 'scripts/release.ts'), ...args], {
    cwd,
    env: {
      GIT_AUTHOR_NAME: 'T',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 'T',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  });

describe('npm run release (C42)', () => {
  it('writes the release into CHANGELOG.md and package.json, commits and tags it', async () => {
    const dir = repository(FILES);
    const cut = git(dir, 'rev-parse', '--short=7', 'HEAD');
    const result = await release(dir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Released v0.2.0');
    const changelog = readFileSync(join(dir, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toMatch(
      new RegExp(
        `## Unreleased\\n\\nNothing yet\\.\\n\\n## v0\\.2\\.0 \\(${cut}, \\d{4}-\\d{2}-\\d{2}\\)\\n\\n- \`0001_b\\.sql\`: b beside a\\.\\n- \`0002_c\\.sql\` \\(contract\\)\\. Going back over it: not safe\\.\\n\\n## v0\\.1\\.0`,
      ),
    );
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version).toBe('0.2.0');
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
    expect([lock.version, lock.packages[''].version]).toEqual(['0.2.0', '0.2.0']);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(git(dir, 'log', '-1', '--format=%s')).toBe('Release v0.2.0');
    expect(git(dir, 'cat-file', '-t', 'v0.2.0')).toBe('tag');
    expect(git(dir, 'rev-parse', 'v0.2.0^{commit}')).toBe(git(dir, 'rev-parse', 'HEAD'));
    // The next release names only what came after.
    const again = await release(dir, 'patch');
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(dir, 'CHANGELOG.md'), 'utf8')).toContain('## v0.2.1');
    expect(readFileSync(join(dir, 'CHANGELOG.md'), 'utf8')).toContain('No migration; going back: safe.');
  });

  it('refuses a dirty tree, an older version, an unmarked migration, and a word it does not know', async () => {
    const dirty = repository(FILES);
    writeFileSync(join(dirty, 'CHANGELOG.md'), 'changed');
    expect((await release(dirty)).stderr).toContain('No release: the working tree has changes');
    const older = repository(FILES);
    expect((await release(older, '0.1.0')).stderr).toContain(
      'No release: v0.1.0 is not newer than the last release, v0.1.0',
    );
    const unmarked = repository({ ...FILES, 'schema/migrations/0003_d.sql': 'CREATE TABLE d (z text);\n' });
    expect((await release(unmarked)).stderr).toContain("0003_d.sql: a migration's first line says");
    const word = repository(FILES);
    const refused = await release(word, 'huge');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('"huge" is not patch, minor, major or a version x.y.z');
    expect(git(word, 'tag')).toBe('');
  });

  it('counts versions as numbers, and keeps notes that name their migrations', () => {
    expect(nextVersion('0.9.3', 'minor')).toBe('0.10.0');
    expect(nextVersion('0.9.3', 'patch')).toBe('0.9.4');
    expect(nextVersion('0.9.3', 'major')).toBe('1.0.0');
    expect(nextVersion('0.9.3', '2.0.0')).toBe('2.0.0');
    const text = releasedChangelog('# Changes\n\n## v0.1.0 (a, d)\n\nx\n', '0.2.0', 'abcdef0', '2026-12-01', [
      { name: '0001_b.sql', step: 'expand', safe: true },
    ]);
    expect(text).toBe(
      '# Changes\n\n## Unreleased\n\nNothing yet.\n\n## v0.2.0 (abcdef0, 2026-12-01)\n\n- `0001_b.sql` (expand). Going back over it: safe.\n\n## v0.1.0 (a, d)\n\nx\n',
    );
  });
});
