// C32: a Cloudflare Access identity. Access signs a JWT for each request it lets through (the
// `Cf-Access-Jwt-Assertion` header); the worker verifies it against the team's public keys, by
// `kid`, and checks that it was issued by the team for this application.
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import { UnavailableError } from '../../lib/faults.ts';

type KeySet = ReturnType<typeof createRemoteJWKSet>;
// One key set per team, kept for the isolate's life: jose fetches the keys once, and again only
// for a `kid` it has not seen (Access rotates its keys every six weeks).
const keySets = new Map<string, KeySet>();

/** `https://<team>.cloudflareaccess.com`, from the setting with or without its scheme. */
export function teamIssuer(teamDomain: string): string {
  const host = teamDomain
    .trim()
    .replace(/^https:\/\//i, '')
    .replace(/\/+$/, '');
  return `https://${host}`;
}

/** Access is on when both its settings are. */
export function accessConfigured(env: Env): env is Env & { ACCESS_TEAM_DOMAIN: string; ACCESS_AUD: string } {
  return Boolean(env.ACCESS_TEAM_DOMAIN?.trim()) && Boolean(env.ACCESS_AUD?.trim());
}

/** Who Access vouches for, and until when its token does (C37: a session never outlives it). */
export type AccessIdentity = { email: string; expiresAt: number };

/**
 * The identity the token stands for, once its signature (RS256, a key of the team), issuer,
 * audience and time are verified; undefined for any token that fails, or that has no `exp` (C37:
 * a token that never ends is refused). The team's keys out of reach (a timeout, a network failure)
 * is an outage: 503 (C18), not a refusal.
 */
export async function accessIdentity(
  token: string,
  settings: { ACCESS_TEAM_DOMAIN: string; ACCESS_AUD: string },
): Promise<AccessIdentity | undefined> {
  const issuer = teamIssuer(settings.ACCESS_TEAM_DOMAIN);
  let keys = keySets.get(issuer);
  if (keys === undefined) {
    keys = createRemoteJWKSet(new URL(`${issuer}/cdn-cgi/access/certs`));
    keySets.set(issuer, keys);
  }
  try {
    const { payload } = await jwtVerify(token, keys, {
      issuer,
      audience: settings.ACCESS_AUD.trim(),
      algorithms: ['RS256'],
      requiredClaims: ['exp'],
    });
    const email = payload.email;
    if (typeof email !== 'string' || email === '' || typeof payload.exp !== 'number') return undefined;
    return { email, expiresAt: payload.exp * 1000 };
  } catch (error) {
    if (error instanceof errors.JWKSTimeout || !(error instanceof errors.JOSEError)) {
      throw new UnavailableError('access', error);
    }
    return undefined;
  }
}
