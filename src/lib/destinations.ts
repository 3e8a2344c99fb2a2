// Where a server of ours may send a request on a user's say-so (C26): https to a public host only.
// Addresses are classified by ipaddr.js; host names are judged by their form, since the address a
// name resolves to is Cloudflare's to find (its network does not route to private addresses).
import ipaddr from 'ipaddr.js';

/** Names that are never a public host: this machine, a local network, a cloud's own services. */
const LOCAL_NAME = /(?:^|\.)(?:localhost|local|internal|localdomain|home\.arpa)$/;
/** The hosts of local development, to which plain http may go when allowed (`npm run dev`). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why the host (as the WHATWG URL parser gives it, IPv4 in every spelling normalised) is not public. */
function hostProblem(host: string): string | undefined {
  const name = host.toLowerCase().replace(/\.$/, '');
  const literal = name.startsWith('[') ? name.slice(1, -1) : name;
  if (ipaddr.isValid(literal)) {
    const address = ipaddr.parse(literal);
    if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
      return 'an IPv4-mapped IPv6 address is not a public host';
    }
    const range = address.range();
    return range === 'unicast' ? undefined : `a ${range} address is not a public host`;
  }
  if (LOCAL_NAME.test(name)) return `'${name}' is not a public host`;
  if (!name.includes('.')) return `'${name}' is not a public host (a public name has a dot)`;
  return undefined;
}

/**
 * C26: why `text` may not be a destination: not a URL, credentials in it, not https, or a host
 * that is not public. `allowLocalHttp`: plain http to this machine is allowed (local development).
 */
export function destinationProblem(text: string, allowLocalHttp: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a URL';
  }
  if (url.username !== '' || url.password !== '') {
    return 'a URL with credentials in it is refused: the receiver verifies the signature instead';
  }
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) {
    return allowLocalHttp
      ? undefined
      : 'plain http is allowed only to localhost under `npm run dev` (ALLOW_LOCAL_WEBHOOKS)';
  }
  if (url.protocol !== 'https:') {
    return 'a webhook URL is https (plain http only to localhost, for local development)';
  }
  return hostProblem(url.hostname);
}

/**
 * C36: where a platform's incoming webhooks live: its hosts (and, for a platform that gives each
 * customer a host of its own, the suffixes such a host ends with: one per region or kind of host,
 * say), their path, and an example.
 */
export type HookHome = {
  name: string;
  hosts: readonly string[];
  hostSuffixes?: readonly string[];
  path: RegExp;
  example: string;
};

/** The suffixes of a home: none when its hosts are all it has. */
const suffixesOf = (home: HookHome): readonly string[] => home.hostSuffixes ?? [];

/**
 * A host of the platform's: one of its hosts, or a name of its own (one label, no dot) under one of
 * its suffixes: `evil-logic.azure.com` is not under `logic.azure.com`, nor is
 * `logic.azure.com.evil.test`.
 */
const isHomeHost = (host: string, home: HookHome) =>
  home.hosts.includes(host) ||
  suffixesOf(home).some(
    (suffix) => host.endsWith(`.${suffix}`) && /^[a-z0-9-]+$/.test(host.slice(0, -suffix.length - 1)),
  );

/**
 * C36: why `text` may not be one of a chat platform's incoming webhooks: it must be https to the
 * platform's own host, at its webhooks' path. `allowLocalHttp`: a stand-in on this machine over
 * plain http is allowed too (`npm run dev`).
 */
export function hookProblem(text: string, home: HookHome, allowLocalHttp: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a URL';
  }
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && allowLocalHttp) return undefined;
  const { name } = home;
  if (
    url.protocol !== 'https:' ||
    url.port !== '' ||
    url.username !== '' ||
    url.password !== '' ||
    !isHomeHost(url.hostname, home) ||
    !home.path.test(url.pathname)
  ) {
    return `a ${name} target is one of ${name}'s incoming webhooks: ${home.example}`;
  }
  return undefined;
}
