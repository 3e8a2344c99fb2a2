// The hand-made mutants (`npm run mutate:hand`, scripts/mutants.ts runs them): each a realistic bug
// in one file, found by a text that is there once, and the test files that must fail when it is in.
// Each was once a mutation no test caught, or a fault a review found (docs/testing.md).

export type Mutant = {
  /** The rule the tests must hold, as docs/testing.md names it. */
  rule: string;
  file: string;
  /** Text found exactly once in the file, and what it becomes. */
  find: string;
  replace: string;
  /** The test files that must fail. */
  tests: string[];
};

export const SPAM_RULES = 'test/node/rules.test.ts';

export const TRUST = ['test/node/spam-trust.test.ts'];

export const MUTANTS: Mutant[] = [
  {
    rule: "C39: one other project's marks never hold a message (two must agree, or the operator)",
    file: 'src/spam/classifier.ts',
    find: 's.own === true || s.operator || s.projects >= AGREEING_PROJECTS',
    replace: 's.own === true || s.operator || s.projects >= 1',
    tests: TRUST,
  },
  {
    rule: "C39: the deployment's untrusted evidence counts in the score with everything, not in the text's own",
    file: 'src/spam/classifier.ts',
    find: `      if (covered.untrusted) {
        replaced += priorPart;`,
    replace: `      if (covered.untrusted) {
        replaced += covered.weight;`,
    tests: TRUST,
  },
  {
    rule: "C39: a project's agreement counts the others, not itself",
    file: 'src/spam/classifier.ts',
    find: 'projects: was.projects + (gives && agrees && g.id !== self ? 1 : 0),',
    replace: 'projects: was.projects + (gives && agrees ? 1 : 0),',
    tests: TRUST,
  },
  {
    rule: 'C39: each project weighs at most SHARED_WEIGHT marks of each kind in the deployment',
    file: 'src/store/spam.ts',
    find: 'then t.spam * min(1.0, ?3 * 1.0 / max(p.learned_spam, 1)) else 0 end) as spam,',
    replace: 'then t.spam else 0 end) as spam,',
    tests: ['test/spam-trust.test.ts'],
  },
  {
    rule: 'C39: a campaign one other project marked makes its copies unsure, never spam',
    file: 'src/spam/judge.ts',
    find: "if (others !== undefined && trusted(others)) return verdictOf('campaign', true, [agreement(others)]);",
    replace: "if (others !== undefined) return verdictOf('campaign', true, [agreement(others)]);",
    tests: ['test/node/spam-cases.test.ts', 'test/node/spam-trust.test.ts'],
  },
  {
    rule: "C39: one project's marks of many copies are still one project",
    file: 'src/spam/campaign-match.ts',
    find: 'else projects.add(c.projectId);',
    replace: 'else projects.add(c.submissionId);',
    tests: TRUST,
  },
  {
    rule: 'C39: signals alone make a message unsure at most, unless the project is strict',
    file: 'src/spam/judge.ts',
    find: 'const holds = s.checked >= threshold && (s.text >= unsureFrom(threshold) || settings.requireWidget);',
    replace: 'const holds = s.checked >= threshold;',
    tests: ['test/node/spam-signals.test.ts'],
  },
  {
    rule: 'C39: pasted characters cost no typing time',
    file: 'src/spam/signals.ts',
    find: 'const typed = Math.max(0, (s.chars ?? 0) - (s.pasted ?? 0));',
    replace: 'const typed = s.chars ?? 0;',
    tests: ['test/node/spam-signals.test.ts'],
  },
  {
    rule: "C39: the widget's count of the typing is never longer than the token has existed",
    file: 'src/spam/signals.ts',
    find: '? Math.min(s.typingMs, s.fillMs) : s.fillMs;',
    replace: '? s.typingMs : s.fillMs;',
    tests: ['test/node/spam-signals.test.ts'],
  },
  {
    rule: 'C39: the previous widget key signs nothing after its rotation',
    file: 'src/accept/widget-token.ts',
    find: '(t, latest) => t.issuedMs !== undefined && t.issuedMs <= latest,',
    replace: '(t) => t.issuedMs !== undefined,',
    tests: ['test/node/spam-signals.test.ts'],
  },
  {
    rule: 'C39: a secret key is never asked for a proof of work',
    file: 'src/accept/signals.ts',
    find: `  if (!signals.page) return JSON.stringify(signals);
  if (project.proofOfWork) {`,
    replace: `  if (project.proofOfWork) {`,
    tests: ['test/spam-signals.test.ts'],
  },
  {
    rule: 'C44: a render in flight when its project changed keeps nothing',
    file: 'src/pages/cache.ts',
    find: '  if (purgedSince || generation !== render.generation) return;',
    replace: '  if (generation !== render.generation) return;',
    tests: ['test/hosted-page.test.ts'],
  },
  {
    rule: 'C44: a render in flight keeps nothing under a generation a purge replaced',
    file: 'src/pages/cache.ts',
    find: '  if (purgedSince || generation !== render.generation) return;',
    replace: '  if (purgedSince) return;',
    tests: ['test/hosted-page.test.ts'],
  },
  {
    rule: 'C44: a purge reaches every host name (a new generation)',
    file: 'src/pages/cache.ts',
    find: '  if (formId !== undefined) await cache.put(generationKey(formId), json(newGeneration(), GENERATION_SECONDS));',
    replace: '',
    tests: ['test/hosted-page.test.ts'],
  },
  {
    rule: 'C39: spam from the threshold on (at the threshold: spam)',
    file: 'src/spam/judge.ts',
    find: 'if (probability >= threshold)',
    replace: 'if (probability > threshold)',
    tests: [SPAM_RULES],
  },
  {
    rule: 'C39: the allow list comes before the block list',
    file: 'src/spam/judge.ts',
    find: `  const allowed = matchList(settings.allow, c);
  if (allowed !== undefined) return verdictOf('allow list', false, [label(allowed)]);
  const blocked = matchList(settings.block, c);
  if (blocked !== undefined) return verdictOf('block list', true, [label(blocked)]);`,
    replace: `  const blocked = matchList(settings.block, c);
  if (blocked !== undefined) return verdictOf('block list', true, [label(blocked)]);
  const allowed = matchList(settings.allow, c);
  if (allowed !== undefined) return verdictOf('allow list', false, [label(allowed)]);`,
    tests: [SPAM_RULES],
  },
  {
    rule: 'C39: one mark trained twice at the same moment is learnt once',
    file: 'src/store/learning.ts',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source's own template text, found as it is written
    find: 'select ?1, value, max(?2, 0), max(?3, 0), max(?5, 0) from json_each(?4) where ${guard}',
    replace: 'select ?1, value, max(?2, 0), max(?3, 0), max(?5, 0) from json_each(?4) where ?6 is not null',
    tests: ['test/spam-filter.test.ts'],
  },
  {
    rule: "C39: a feature an owner's marks cover is weighed by the marks alone",
    file: 'src/spam/classifier.ts',
    find: `        parts.push({ feature, layer: covered.layer, weight: covered.weight });
      }
      continue;`,
    replace: `        parts.push({ feature, layer: covered.layer, weight: covered.weight });
      }
      z += priorPart;
      continue;`,
    tests: [SPAM_RULES],
  },
  {
    rule: "C39: an owner's marks never weigh a common feature",
    file: 'src/spam/classifier.ts',
    find: 'const covered = prior.common.has(feature) ? undefined : cover(feature, layers, tuning);',
    replace: 'const covered = cover(feature, layers, tuning);',
    tests: [SPAM_RULES],
  },
  {
    rule: 'C39: a disposable domain is one in any case',
    file: 'src/spam/features.ts',
    find: 'if (lists.disposable.has(domain))',
    replace: 'if (lists.disposable.has(given))',
    tests: [SPAM_RULES],
  },
  {
    rule: "C40: two leaves of one visitor in one batch: the later one's field and time count",
    file: 'src/analytics/gather.ts',
    find: 'left: later.left ?? earlier.left,',
    replace: 'left: earlier.left ?? later.left,',
    tests: [SPAM_RULES],
  },
  {
    rule: "C35: a confirmation refused by one mailbox's cap does not use up the project's",
    file: 'src/delivery/confirm.ts',
    find: `  if (!(await take(db, scopes.mailbox(d.projectId, mailbox), day, perMailbox))) {
    capped = \`not sent: this mailbox has had \${perMailbox} confirmation\${perMailbox === 1 ? '' : 's'} from the project today (CONFIRMATIONS_PER_ADDRESS_PER_DAY)\`;
  } else if (!(await take(db, scopes.project(d.projectId), day, perProject))) {
    capped = \`not sent: the project has sent its \${perProject} confirmations today (CONFIRMATIONS_PER_PROJECT_PER_DAY)\`;
  }`,
    replace: `  if (!(await take(db, scopes.project(d.projectId), day, perProject))) {
    capped = \`not sent: the project has sent its \${perProject} confirmations today (CONFIRMATIONS_PER_PROJECT_PER_DAY)\`;
  } else if (!(await take(db, scopes.mailbox(d.projectId, mailbox), day, perMailbox))) {
    capped = \`not sent: this mailbox has had \${perMailbox} confirmation\${perMailbox === 1 ? '' : 's'} from the project today (CONFIRMATIONS_PER_ADDRESS_PER_DAY)\`;
  }`,
    tests: ['test/mail-caps.test.ts'],
  },
  {
    rule: 'C37: a project sends at most its daily number of verification mails',
    file: 'src/delivery/consent.ts',
    find: 'if (!(await take(db, scopes.verifyProject(project.id), day, VERIFY_MAILS_PER_PROJECT))) {',
    replace: 'if (!(await take(db, scopes.verifyProject(project.id), day, VERIFY_MAILS_PER_PROJECT + 1))) {',
    tests: ['test/mail-caps.test.ts'],
  },
  {
    rule: 'C41: a copy with the same row counts but other content undoes the move',
    file: 'src/ops/move.ts',
    find: 'if (copy?.rows !== seen.rows || copy.sha256 !== seen.sha256) {',
    replace: 'if (copy?.rows !== seen.rows) {',
    tests: ['test/move-copy.test.ts'],
  },
  {
    rule: 'C41: a move deletes the source only after routing has switched',
    file: 'src/ops/move.ts',
    find: `  for (const [place, db] of placesOf(m)) {
    if (place === to) await dropForwarding(db, p.id);`,
    replace: `  await deleteProjectRows(source.db.$client, p.id);
  for (const [place, db] of placesOf(m)) {
    if (place === to) await dropForwarding(db, p.id);`,
    tests: ['test/move-copy.test.ts'],
  },
  {
    rule: "C41: a move carries the project's learnt spam tokens",
    file: 'src/store/copy.ts',
    find: "...own('drafts', 'spam_tokens', 'search_terms', 'audit_log'),",
    replace: "...own('drafts', 'search_terms', 'audit_log'),",
    tests: ['test/move-copy.test.ts'],
  },
  {
    rule: "C20: an Idempotency-Key is looked up in the request's project only (a file's look-up before the write)",
    file: 'src/store/intake.ts',
    find: `'select "id", "body_hash" from "submissions" where "project_id" = ? and "idempotency_key" = ?'`,
    replace: `'select "id", "body_hash" from "submissions" where ?1 is not null and "idempotency_key" = ?2'`,
    tests: ['test/idempotency.test.ts'],
  },
  {
    rule: "C41: a warm key's reads and writes are held to its project's fence",
    file: 'src/api/submissions/routes.ts',
    find: `  const { db, bookmark } = sessionDatabase(d1, start, {
    projectId: c.var.project.id,
    place,
    keyed: true,`,
    replace: `  const { db, bookmark } = sessionDatabase(d1, start, {
    projectId: c.var.project.id,
    place,
    keyed: false,`,
    tests: ['test/move-keys.test.ts'],
  },
  {
    rule: 'C41: a write behind the fence is refused while its project moves',
    file: 'src/store/fence.ts',
    find: "    .prepare('insert into project_fence (project_id) values (?)')",
    replace: "    .prepare('select ? as project_id')",
    tests: ['test/move-keys.test.ts'],
  },
  {
    rule: "C40, C41: each place hashes its visitors with its own day's salt",
    file: 'src/api/events/routes.ts',
    find: 'const salt = await daySalt(placeOf(c.env, project.place).d1, day);',
    replace: 'const salt = await daySalt(c.env.DB, day);',
    tests: ['test/analytics-places.test.ts'],
  },
  {
    rule: 'C40: one address adds a bounded number of visitors, whatever user agents it sends',
    file: 'src/analytics/gather.ts',
    find: 'String(shareOf(userAgent))',
    replace: 'userAgent',
    tests: ['test/analytics.test.ts'],
  },
  {
    rule: "C37: the cap of verification mails per mailbox counts every place's",
    file: 'src/ops/targets.ts',
    find: 'await sendVerification(m.db, otherPlaces(m), m.mail, p, to, token, until)',
    replace: 'await sendVerification(m.db, [], m.mail, p, to, token, until)',
    tests: ['test/manage/consent.test.ts'],
  },
];
