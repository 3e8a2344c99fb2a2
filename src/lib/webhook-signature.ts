// Standard Webhooks (https://www.standardwebhooks.com): `whsec_` secrets, and the
// `webhook-signature` of a message — `v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`
// under the secret's bytes. Several signatures, space-separated, let a receiver verify during a
// rotation with either secret. WebCrypto only: the same code signs in the worker and in Node.

import { toBase64 } from './hex.ts';

const PREFIX = 'whsec_';
const encoder = new TextEncoder();

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
}

/** A new signing secret: `whsec_` and 32 random bytes in base64 (the specification asks 24–64). */
export function newWebhookSecret(): string {
  return PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(32)));
}

/** One signature, `v1,<base64>`, of the message under the secret. */
export async function signWebhook(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    fromBase64(secret.slice(PREFIX.length)),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const signature = await crypto.subtle.sign('HMAC', key, encoder.encode(`${id}.${timestamp}.${body}`));
  return `v1,${toBase64(new Uint8Array(signature))}`;
}

/** The three headers of a delivery, signed with every secret given (the current one first). */
export async function webhookHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Promise<Record<string, string>> {
  const signatures = await Promise.all(secrets.map((s) => signWebhook(s, id, timestamp, body)));
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatures.join(' '),
  };
}
