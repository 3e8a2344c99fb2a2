// The fifth round of hand-made mutants (scripts/mutant-list.ts holds the earlier ones; the runner is
// scripts/mutants.ts): the widget's token, the request's signals, the marks and campaigns, hosted
// pages' languages, logos and deliveries.
import { type Mutant, SPAM_RULES, TRUST } from './mutant-list.ts';

// The rules a round of hand-made bugs in the widget's token, the request's signals, the marks and
// campaigns, hosted pages' languages, logos and deliveries found untested (docs/testing.md).
const SIGNALS = ['test/node/spam-signals.test.ts'];
const DELIVERY = ['test/webhooks.test.ts', 'test/channels.test.ts'];

export const ROUND_FIVE: Mutant[] = [
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
    file: 'src/spam/campaign-match.ts',
    find: 'if (alike < SAME_CAMPAIGN) continue;',
    replace: 'if (alike <= SAME_CAMPAIGN) continue;',
    tests: TRUST,
  },
  {
    rule: 'C39: a copy its project marked not spam protects, whatever spam marks came after',
    file: 'src/spam/campaign-match.ts',
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
    file: 'src/delivery/outbound.ts',
    find: "redirect: 'manual',",
    replace: "redirect: 'follow',",
    tests: DELIVERY,
  },
  {
    rule: "C26: at most 4 KiB of a webhook's answer is read",
    file: 'src/delivery/outbound.ts',
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
    tests: ['test/built-in-integrations.test.ts', 'test/channels.test.ts'],
  },
];
