// C39: a private proof of work, for owners who will not send their visitors to a third party: an
// ALTCHA challenge (altcha-lib), issued with the widget's token and verified in the isolate by an
// HMAC alone (its deterministic mode signs the expected key), with its expiry. A challenge is
// bound to its project; its reuse is found after the store, like a token's (the consumer). The
// library is loaded with the first challenge: a form post of a project without one never evaluates it.
import { derivedBits, type Purpose, type WidgetKeys } from '../auth/operator-secret.ts';
import { toHex } from '../lib/hex.ts';
import { underKeys } from './widget-token.ts';

/** How much work a challenge asks: a counter from 1,000 to this, found by trying each (about a second in a browser). */
export const MAX_COUNTER = 50_000;
const MIN_COUNTER = 1_000;
/** A challenge is good as long as the token it came with. */
export const CHALLENGE_LIFETIME_MS = 60 * 60_000;

/** One purpose's derived bits as lower-case hex: ALTCHA takes its secrets as text. */
const derivedHex = async (secret: string, purpose: Purpose) => toHex(await derivedBits(secret, purpose));

/** Two HMAC secrets (the challenge's, the expected key's), derived from the widget's key. */
const secrets = (secret: string) =>
  Promise.all([
    derivedHex(secret, 'edge-forms proof of work'),
    derivedHex(secret, 'edge-forms proof of work key'),
  ]);

const library = () => Promise.all([import('altcha-lib'), import('altcha-lib/algorithms/web/sha')]);

/** A new challenge for the project, as ALTCHA's widgets take it. */
export async function newChallenge(secret: string, projectId: string, now: number) {
  const [[{ createChallenge, randomInt }, { deriveKey }], [signing, keySigning]] = await Promise.all([
    library(),
    secrets(secret),
  ]);
  return createChallenge({
    algorithm: 'SHA-256',
    cost: 1,
    counter: MIN_COUNTER + randomInt(MAX_COUNTER - MIN_COUNTER),
    deriveKey,
    data: { project: projectId },
    expiresAt: Math.floor((now + CHALLENGE_LIFETIME_MS) / 1000),
    hmacSignatureSecret: signing,
    hmacKeySignatureSecret: keySigning,
  });
}

export type ProofCheck =
  | { ok: true; nonce: string; expiresAt: string }
  | { ok: false; why: 'invalid' | 'expired' };

/** An ALTCHA payload checked under one secret: undefined when that secret did not sign it. */
async function checkWith(
  secret: string,
  projectId: string,
  challenge: unknown,
  solution: unknown,
): Promise<ProofCheck | undefined> {
  const [[{ verifySolution }, { deriveKey }], [signing, keySigning]] = await Promise.all([
    library(),
    secrets(secret),
  ]);
  type Options = Parameters<typeof verifySolution>[0];
  let result: Awaited<ReturnType<typeof verifySolution>>;
  try {
    result = await verifySolution({
      challenge: challenge as Options['challenge'],
      solution: solution as Options['solution'],
      deriveKey,
      hmacSignatureSecret: signing,
      hmacKeySignatureSecret: keySigning,
    });
  } catch {
    return { ok: false, why: 'invalid' };
  }
  if (result.expired) return { ok: false, why: 'expired' };
  const parameters = (challenge as Options['challenge']).parameters;
  // Signed by us for this project (a challenge of another project proves nothing here).
  if (!result.verified) return undefined;
  if (parameters.data?.project !== projectId) return { ok: false, why: 'invalid' };
  return {
    ok: true,
    nonce: parameters.nonce,
    expiresAt: new Date((parameters.expiresAt ?? 0) * 1000).toISOString(),
  };
}

/**
 * An ALTCHA payload (base64 JSON of the challenge and its solution), checked for this project.
 * C39: one the previous key signed is good only if it was issued before that key's rotation.
 */
export async function checkProof(keys: WidgetKeys, projectId: string, payload: string): Promise<ProofCheck> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(atob(payload));
  } catch {
    return { ok: false, why: 'invalid' };
  }
  const { challenge, solution } = (parsed ?? {}) as { challenge?: unknown; solution?: unknown };
  if (
    typeof challenge !== 'object' ||
    challenge === null ||
    typeof solution !== 'object' ||
    solution === null
  )
    return { ok: false, why: 'invalid' };
  const checked = await underKeys(
    keys,
    (secret) => checkWith(secret, projectId, challenge, solution),
    // A challenge expires CHALLENGE_LIFETIME_MS after it was issued.
    (proof, latest) => !proof.ok || Date.parse(proof.expiresAt) <= latest + CHALLENGE_LIFETIME_MS,
  );
  return checked ?? { ok: false, why: 'invalid' };
}
