// `forms limits …` (C45): a form's limits shown and changed member by member, against a temporary
// local database; a bad one refused with the sentence the API answers.
import { describe, expect, it } from 'vitest';
import { toolOnTemp } from './helpers.ts';

const { forms, json, newProject } = toolOnTemp('limits');

describe('forms limits', () => {
  it('sets the members given, keeps the others, clears with --no-; shows them', async () => {
    const p = await newProject();
    const set = await json<{ limits: Record<string, unknown> }>(
      'limits',
      'set',
      p.projectId,
      '--max-submissions',
      '60',
      '--closes-at',
      '2030-06-01T12:00:00+02:00',
      '--closed-text',
      'en=All places are taken.',
    );
    expect(set.limits).toEqual({
      maxSubmissions: 60,
      opensAt: null,
      closesAt: '2030-06-01T10:00:00.000Z',
      closedText: { en: 'All places are taken.' },
    });
    await json('limits', 'set', p.projectId, '--no-max-submissions');
    const shown = await forms('limits', 'show', p.projectId);
    expect(shown.stdout).toBe(
      `Limits of ${p.projectId}: takes any number of submissions, opens (always open), closes 2030-06-01T10:00:00.000Z, closed text[en]="All places are taken.".\n`,
    );
    await json('limits', 'set', p.projectId, '--max-submissions', '1');
    expect((await forms('limits', 'show', p.projectId)).stdout).toContain(
      ': takes at most 1 submission, opens',
    );
  });

  it('refuses nothing to change (exit 2) and a bad value with the API’s sentence', async () => {
    const p = await newProject();
    const nothing = await forms('limits', 'set', p.projectId);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('Nothing to change');
    const bad = await forms('limits', 'set', p.projectId, '--opens-at', 'soon');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "opensAt is an ISO time with its zone, e.g. 2026-12-24T18:00:00Z: not 'soon'",
    );
  });
});
