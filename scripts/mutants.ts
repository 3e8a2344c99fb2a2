// `npm run mutate:hand`: small, realistic bugs, put one at a time into the code and followed by the
// test files that cover it; each must make them fail. Most of these rules are tested inside
// workerd (@cloudflare/vitest-plugin), which Stryker's vitest runner cannot drive
// (docs/testing.md), so they are kept here by hand: each was once a mutation no test caught, or a
// fault a review found. The file is restored after each, whatever happens.
//
//   npm run mutate:hand                 every mutant
//   npm run mutate:hand -- --only 3 9   those numbers
//   npm run mutate:hand -- --list       what each one breaks
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

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

const SPAM_RULES = 'test/node/rules.test.ts';

const TRUST = ['test/node/spam-trust.test.ts'];

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
    file: 'src/jobs/verdicts.ts',
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
    find: "...own('spam_tokens', 'search_terms', 'audit_log'),",
    replace: "...own('search_terms', 'audit_log'),",
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

// The rules a round of hand-made bugs in the widget's token, the request's signals, the marks and
// campaigns, hosted pages' languages, logos and deliveries found untested (docs/testing.md).
const SIGNALS = ['test/node/spam-signals.test.ts'];
const DELIVERY = ['test/webhooks.test.ts'];

const ROUND_FIVE: Mutant[] = [
  {
    rule: "C39: the widget token's MAC covers the time the form was first seen",
    file: 'src/accept/widget-token.ts',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the template's source text, found as it is
    find: 'encoder.encode(`${projectId}\\n${start}\\n${issued}\\n${nonce}`),',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the template's source text, as it becomes
    replace: 'encoder.encode(`${projectId}\\n${issued}\\n${nonce}`),',
    tests: SIGNALS,
  },
  {
    rule: "C39: a renewed token's expiry counts from its issue, not from the form's first time",
    file: 'src/accept/widget-token.ts',
    find: 'expiresAt: now + TOKEN_LIFETIME_MS,',
    replace: 'expiresAt: startMs + TOKEN_LIFETIME_MS,',
    tests: SIGNALS,
  },
  {
    rule: 'C39: a token is good for TOKEN_LIFETIME_MS after its issue, whenever the form was first seen',
    file: 'src/accept/widget-token.ts',
    find: "const state = now - issuedMs > TOKEN_LIFETIME_MS ? 'expired' : 'valid';",
    replace: "const state = now - startMs > TOKEN_LIFETIME_MS ? 'expired' : 'valid';",
    tests: SIGNALS,
  },
  {
    rule: 'C39: a renewal carries the time the form was first seen',
    file: 'src/accept/widget-token.ts',
    find: '      startMs = old.startMs;',
    replace: '      startMs = now;',
    tests: SIGNALS,
  },
  {
    rule: "C39: the fill time counts from the first time the form was seen, not the token's issue",
    file: 'src/accept/signals.ts',
    find: 'signals.fillMs = Math.max(0, now - token.startMs);',
    replace: 'signals.fillMs = Math.max(0, now - token.issuedMs);',
    tests: ['test/spam-signals.test.ts'],
  },
  {
    rule: 'C39: a proof of work used before holds a submission whatever its key',
    file: 'src/spam/signals.ts',
    find: "  if (reuse.pow) return { layer: 'proof of work', signal: 'proof of work used before' };\n  if (!s.page) return undefined;",
    replace:
      "  if (!s.page) return undefined;\n  if (reuse.pow) return { layer: 'proof of work', signal: 'proof of work used before' };",
    tests: SIGNALS,
  },
  {
    rule: 'C39: the fill-time floor grows with the typed text, beyond MIN_FILL_MS',
    file: 'src/spam/signals.ts',
    find: 'return typing < typingFloorMs(typed) ?',
    replace: 'return typing < typingFloorMs(0) ?',
    tests: SIGNALS,
  },
  {
    rule: 'C39: a missing token adds nothing to a score without another request signal',
    file: 'src/spam/signals.ts',
    find: "if (s.token === 'missing' && request.length > 0)",
    replace: "if (s.token === 'missing')",
    tests: SIGNALS,
  },
  {
    rule: 'C39: not-spam marks move a score by at most MAX_COUNTED, as spam marks do',
    file: 'src/spam/classifier.ts',
    find: 'Math.max(-tuning.maxCounted, Math.min(tuning.maxCounted, z))',
    replace: 'Math.max(-100, Math.min(tuning.maxCounted, z))',
    tests: ['test/node/spam.test.ts', SPAM_RULES],
  },
  {
    rule: 'C39: a similarity of exactly SAME_CAMPAIGN is the same campaign',
    file: 'src/jobs/verdicts.ts',
    find: 'if (alike < SAME_CAMPAIGN) continue;',
    replace: 'if (alike <= SAME_CAMPAIGN) continue;',
    tests: TRUST,
  },
  {
    rule: 'C39: a copy its project marked not spam protects, whatever spam marks came after',
    file: 'src/jobs/verdicts.ts',
    find: "(match.label === 'ham' && own.label === 'spam') ||",
    replace: 'false ||',
    tests: TRUST,
  },
  {
    rule: 'C44: a language the visitor refuses (q=0) is never chosen',
    file: 'src/pages/language.ts',
    find: '.filter((w) => w.q > 0)',
    replace: '.filter((w) => w.q >= 0)',
    tests: ['test/node/page-language.test.ts'],
  },
  {
    rule: "C44: a visitor's de finds a page's de-CH",
    file: 'src/pages/language.ts',
    find: 'open(l) && primary(l) === primary(tag)',
    replace: 'open(l) && l === primary(tag)',
    tests: ['test/node/page-language.test.ts'],
  },
  {
    rule: 'C44: other RIFF bytes (a WAV, an AVI) sent as image/webp are refused as a logo',
    file: 'src/files/logo.ts',
    find: "ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')",
    replace: "ascii(b, 0, 'RIFF')",
    tests: ['test/node/logo.test.ts'],
  },
  {
    rule: 'C26: a delivery never follows a redirect',
    file: 'src/delivery/http.ts',
    find: "redirect: 'manual',",
    replace: "redirect: 'follow',",
    tests: DELIVERY,
  },
  {
    rule: "C26: at most 4 KiB of a webhook's answer is read",
    file: 'src/delivery/http.ts',
    find: 'init.json === true ? READ_LIMIT : 4096',
    replace: 'READ_LIMIT',
    tests: DELIVERY,
  },
  {
    rule: 'C26: a signed webhook answering 404 is retried, never disabled',
    file: 'src/delivery/channels/webhook.ts',
    find: 'disableOn: [410]',
    replace: 'disableOn: [404, 410]',
    tests: DELIVERY,
  },
  {
    rule: 'C38: an integration answering 404 (a sheet or a database not shared) is disabled',
    file: 'src/delivery/channels/channel.ts',
    find: 'disableOn: [401, 403, 404],',
    replace: 'disableOn: [401, 403],',
    tests: ['test/built-in-integrations.test.ts'],
  },
];

/** Runs the test files; true when they fail (the mutant is caught). */
function caught(tests: string[]): boolean {
  const run = spawnSync('npm', ['run', '-s', 'test:unit', '--', '--reporter=dot', ...tests], {
    encoding: 'utf8',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
  });
  return run.status !== 0;
}

/** Every hand-made mutant, numbered as `--list` shows them. */
export const ALL_MUTANTS = [...MUTANTS, ...ROUND_FIVE].map((m, i) => ({ ...m, n: i + 1 }));

export type HandResult = { killed: number; total: number; survivors: string[]; stale?: string };

/** Runs the mutants given, one at a time, each file restored after it; prints a line for each. */
export function runMutants(chosen: readonly (Mutant & { n: number })[]): HandResult {
  const survivors: string[] = [];
  for (const m of chosen) {
    const original = readFileSync(m.file, 'utf8');
    const at = original.indexOf(m.find);
    if (at < 0 || original.indexOf(m.find, at + 1) >= 0)
      return {
        killed: 0,
        total: chosen.length,
        survivors,
        stale: `mutant ${m.n} no longer applies to ${m.file} (its text is not there once): update scripts/mutants.ts`,
      };
    let killed: boolean;
    try {
      writeFileSync(m.file, original.slice(0, at) + m.replace + original.slice(at + m.find.length));
      killed = caught(m.tests);
    } finally {
      writeFileSync(m.file, original);
    }
    console.log(`${killed ? 'killed  ' : 'SURVIVED'} ${String(m.n).padStart(2)}. ${m.rule}`);
    if (!killed) survivors.push(`${m.n}. ${m.rule}`);
  }
  return { killed: chosen.length - survivors.length, total: chosen.length, survivors };
}

export function main(argv: string[]): number {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { only: { type: 'string', multiple: true }, list: { type: 'boolean' } },
    allowPositionals: true,
  });
  // `--only 3 9`: the numbers after the first are positionals.
  const only = values.only === undefined ? undefined : [...values.only, ...positionals].map(Number);
  const chosen = ALL_MUTANTS.filter((m) => only === undefined || only.includes(m.n));
  if (values.list) {
    for (const m of chosen) console.log(`${String(m.n).padStart(2)}. ${m.rule}  (${m.file})`);
    return 0;
  }
  const result = runMutants(chosen);
  if (result.stale !== undefined) {
    console.error(`✗ ${result.stale}`);
    return 2;
  }
  console.log(
    `\nhand-made mutants: ${result.killed} of ${result.total} killed (${((100 * result.killed) / result.total).toFixed(1)}%)`,
  );
  for (const s of result.survivors) console.log(`  survived: ${s}`);
  return result.survivors.length === 0 ? 0 : 1;
}

if (import.meta.main) process.exitCode = main(process.argv.slice(2));
