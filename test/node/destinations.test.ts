// C26: where a webhook may be sent: https to a public host, in any spelling of its address.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { destinationProblem, type HookHome, hookProblem } from '../../src/lib/destinations.ts';

/** Every spelling of an IPv4 address the WHATWG URL parser reads as that address. */
function spellings([a, b, c, d]: number[]): string[] {
  const n = (((a ?? 0) * 256 + (b ?? 0)) * 256 + (c ?? 0)) * 256 + (d ?? 0);
  const octets = [a, b, c, d] as number[];
  return [
    octets.join('.'),
    String(n),
    `0x${n.toString(16)}`,
    octets.map((o) => `0${o.toString(8)}`).join('.'),
    octets.map((o) => `0x${o.toString(16)}`).join('.'),
    `${a}.${(b ?? 0) * 65536 + (c ?? 0) * 256 + (d ?? 0)}`,
    `${a}.${b}.${(c ?? 0) * 256 + (d ?? 0)}`,
  ];
}

const octet = fc.integer({ min: 0, max: 255 });

describe('C26: destinations', () => {
  it('C26 (property): no spelling of a loopback, private, link-local or CGNAT IPv4 address passes', () => {
    const inRange = fc.oneof(
      fc.tuple(fc.constant(127), octet, octet, octet),
      fc.tuple(fc.constant(10), octet, octet, octet),
      fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), octet, octet),
      fc.tuple(fc.constant(192), fc.constant(168), octet, octet),
      fc.tuple(fc.constant(169), fc.constant(254), octet, octet),
      fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), octet, octet),
      fc.tuple(fc.constant(0), octet, octet, octet),
    );
    fc.assert(
      fc.property(inRange, (address) => {
        for (const host of spellings(address)) {
          expect(destinationProblem(`https://${host}/hook`, false)).toMatch(/is not a public host/);
          expect(destinationProblem(`https://[::ffff:${address.join('.')}]/hook`, false)).toMatch(
            /IPv4-mapped/,
          );
        }
      }),
    );
  });

  it('C26: a public address or name passes, in https; credentials, plain http and local names do not', () => {
    for (const ok of [
      'https://hooks.example.com/x',
      'https://93.184.215.14/x',
      'https://[2606:4700::1111]/x',
    ]) {
      expect(destinationProblem(ok, false)).toBeUndefined();
    }
    expect(destinationProblem('https://intranet/x', false)).toMatch(/a public name has a dot/);
    expect(destinationProblem('https://hooks.example.com./x', false)).toBeUndefined();
    expect(destinationProblem('https://localhost./x', false)).toMatch(/'localhost' is not a public host/);
    expect(destinationProblem('https://a:b@hooks.example.com/x', false)).toMatch(/credentials/);
    expect(destinationProblem('http://hooks.example.com/x', true)).toMatch(/a webhook URL is https/);
    // The local exception of `npm run dev`: plain http to this machine, when allowed.
    expect(destinationProblem('http://localhost:3000/hook', true)).toBeUndefined();
    expect(destinationProblem('http://127.0.0.1:3000/hook', true)).toBeUndefined();
    expect(destinationProblem('http://[::1]:3000/hook', true)).toBeUndefined();
    expect(destinationProblem('http://localhost:3000/hook', false)).toMatch(/ALLOW_LOCAL_WEBHOOKS/);
    expect(destinationProblem('https://localhost:3000/hook', true)).toMatch(/not a public host/);
  });
});

describe('C36: a chat platform’s home', () => {
  // A platform that gives each customer a host of its own, under one suffix.
  const home: HookHome = {
    name: 'Tenant chat',
    hosts: ['hooks.example.com'],
    hostSuffixes: ['hooks.example.net'],
    path: /^\/in\/[\w-]+$/,
    example: 'https://<tenant>.hooks.example.net/in/<token>',
  };
  const refusal = `a Tenant chat target is one of Tenant chat's incoming webhooks: ${home.example}`;

  it('takes one of its hosts, or a tenant’s own name under its suffix, at its path', () => {
    for (const url of [
      'https://hooks.example.com/in/abc',
      'https://contoso.hooks.example.net/in/abc',
      'https://a-1.hooks.example.net/in/abc',
    ]) {
      expect(hookProblem(url, home, false)).toBeUndefined();
    }
  });

  it('refuses the suffix alone, a name with dots under it, a look-alike, another path, http and a port', () => {
    for (const url of [
      'https://hooks.example.net/in/abc',
      'https://evil.com.hooks.example.net/in/abc',
      'https://xhooks.example.net/in/abc',
      'https://contoso.hooks.example.net.evil.com/in/abc',
      'https://contoso.hooks.example.net/out/abc',
      'http://contoso.hooks.example.net/in/abc',
      'https://contoso.hooks.example.net:8443/in/abc',
      'https://user:pw@contoso.hooks.example.net/in/abc',
    ]) {
      expect(hookProblem(url, home, false), url).toBe(refusal);
    }
  });

  it('without a suffix, only its own hosts', () => {
    const { hostSuffixes: _, ...fixed } = home;
    expect(hookProblem('https://contoso.hooks.example.net/in/abc', fixed, false)).toBe(refusal);
    expect(hookProblem('https://hooks.example.com/in/abc', fixed, false)).toBeUndefined();
  });
});
