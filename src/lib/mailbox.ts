// C35: one mailbox is one mailbox. The spellings that reach the same inbox count as one address
// for the confirmation caps: case, a `+tag`, and the rules that providers publish.

/** Domains that are one provider's aliases of each other, by the domain counted. */
const DOMAIN_ALIASES: Record<string, string> = {
  'googlemail.com': 'gmail.com',
  'me.com': 'icloud.com',
  'mac.com': 'icloud.com',
  'protonmail.com': 'proton.me',
  'protonmail.ch': 'proton.me',
  'pm.me': 'proton.me',
};

/**
 * What a provider ignores in the local part, by the domain counted: Gmail ignores dots; Proton
 * ignores dots, hyphens and underscores.
 */
const IGNORED_IN_LOCAL: Record<string, RegExp> = {
  'gmail.com': /\./g,
  'proton.me': /[._-]/g,
};

/**
 * The mailbox an address reaches, as one spelling: lower case, without its `+tag` (every major
 * provider delivers `box+anything` to `box`), with the provider's own aliases and ignored
 * characters folded. Not an address to send to: only a key to count by.
 */
export function mailboxOf(address: string): string {
  const text = address.trim().normalize('NFKC').toLowerCase();
  const at = text.lastIndexOf('@');
  if (at <= 0) return text;
  const rawDomain = text.slice(at + 1).replace(/\.+$/, '');
  const domain = DOMAIN_ALIASES[rawDomain] ?? rawDomain;
  let local = text.slice(0, at);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const ignored = IGNORED_IN_LOCAL[domain];
  if (ignored !== undefined) local = local.replace(ignored, '') || local;
  return `${local}@${domain}`;
}
