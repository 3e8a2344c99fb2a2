// C44: the hosted page's settings the tests of the tool and of the management API both expect: a
// new project's, and those of a German page set member by member. One copy, so that the tool and
// the API are held to the same values.
import type { PageView } from '../src/ops/project-view.ts';

export const DEFAULT_PAGE: PageView = {
  enabled: false,
  languages: ['en'],
  title: {},
  intro: {},
  thanks: {},
  accent: '#1f5fbf',
  theme: 'auto',
  logo: null,
  turnstileSiteKey: null,
  steps: [],
};

export const GERMAN_PAGE: PageView = {
  enabled: false,
  languages: ['de', 'en-GB'],
  title: { de: 'Schreiben Sie uns', 'en-GB': 'Write to us' },
  intro: { de: 'Zeile eins\nZeile zwei' },
  thanks: { de: 'Danke!' },
  accent: '#aa0044',
  theme: 'dark',
  logo: null,
  turnstileSiteKey: null,
  steps: [],
};
