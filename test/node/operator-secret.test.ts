// C32, C39: the operator's secret in one place (src/auth/operator-secret.ts): each purpose's key is
// HKDF-SHA-256 of the secret under its own label, the same bits as before the keys were derived
// here (so a widget token or a challenge an open page holds stays good across the upgrade), and
// secrets are compared in constant time whatever their lengths.
import { createHmac, hkdfSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkToken } from '../../src/accept/widget-token.ts';
import { derivedBits, type Purpose, sameSecret } from '../../src/auth/operator-secret.ts';

const SECRET = 'k'.repeat(43);
const hkdf = (secret: string, label: string) =>
  new Uint8Array(hkdfSync('sha256', secret, new Uint8Array(0), label, 32));

describe('the keys derived from the operator’s secret', () => {
  it('are HKDF-SHA-256 of the secret, no salt, under each purpose’s own label', async () => {
    // The labels as deployed workers sign with them: rewording one invalidates open pages.
    const purposes: Purpose[] = [
      'edge-forms widget token',
      'edge-forms proof of work',
      'edge-forms proof of work key',
    ];
    for (const purpose of purposes) {
      expect(await derivedBits(SECRET, purpose)).toEqual(hkdf(SECRET, purpose));
    }
    const [token, work, workKey] = await Promise.all(purposes.map((p) => derivedBits(SECRET, p)));
    expect(new Set([token, work, workKey].map((b) => Buffer.from(b ?? []).toString('hex'))).size).toBe(3);
  });

  it('are derived again after a rotation: a new secret, new bits', async () => {
    const other = 'm'.repeat(43);
    expect(await derivedBits(other, 'edge-forms widget token')).toEqual(
      hkdf(other, 'edge-forms widget token'),
    );
    expect(await derivedBits(SECRET, 'edge-forms widget token')).toEqual(
      hkdf(SECRET, 'edge-forms widget token'),
    );
  });

  it('check a widget token signed as a release before signed it (HMAC under the derived key)', async () => {
    const now = Date.UTC(2026, 10, 28, 12);
    const start = (now - 60_000).toString(36);
    const issued = now.toString(36);
    const nonce = 'AAAAAAAAAAAAAAAA';
    const mac = createHmac('sha256', hkdf(SECRET, 'edge-forms widget token'))
      .update(`p1\n${start}\n${issued}\n${nonce}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
    const token = `${start}.${issued}.${nonce}.${mac}`;
    expect(await checkToken({ current: SECRET }, 'p1', token, now + 1000)).toMatchObject({
      state: 'valid',
      nonce,
    });
    expect((await checkToken({ current: SECRET }, 'p2', token, now + 1000)).state).toBe('forged');
  });
});

describe('sameSecret', () => {
  it('(property) is true exactly when the two texts are equal, whatever their lengths', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string(), async (a, b) => {
        expect(await sameSecret(a, b)).toBe(a === b);
        expect(await sameSecret(a, a)).toBe(true);
      }),
    );
    expect(await sameSecret(SECRET, `${SECRET}x`)).toBe(false);
    expect(await sameSecret('', SECRET)).toBe(false);
  });
});
