// C44: a hosted page's logo, kept in the bucket of its project's place (C41) under a key of its own,
// `<project>/page/logo`: under the project's prefix, so that a move copies it with the project's
// other files, and never a submission's (a submission's id is a UUID). Only raster images whose
// bytes say what their type says: never SVG, which a browser runs script in when it shows it on
// its own (C30's rule for files, and a page whose owner's logo ran script would be the owner's
// page no more). Never fetched from a URL: its bytes come with the request that sets it.
import type { R2Bucket } from '@cloudflare/workers-types';
import { InvalidInput } from '../lib/faults.ts';
import { sha256Hex } from './bytes.ts';

/** The types a logo may be, each with its name and the signature its bytes start with. */
const SIGNATURES = {
  'image/png': ['PNG', (b: Uint8Array) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  'image/jpeg': ['JPEG', (b: Uint8Array) => startsWith(b, [0xff, 0xd8, 0xff])],
  'image/webp': ['WebP', (b: Uint8Array) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')],
  'image/gif': ['GIF', (b: Uint8Array) => ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')],
} as const;
export type LogoType = keyof typeof SIGNATURES;
export const LOGO_TYPES = Object.keys(SIGNATURES) as LogoType[];

/** The largest logo: 256 KiB, plenty for a logo a page shows at a few hundred pixels. */
export const MAX_LOGO_BYTES = 256 * 1024;

/** What the project's view says of its logo (the bytes are in R2). */
export type Logo = { type: LogoType; size: number; sha256: string };

export const logoPrefix = (projectId: string) => `${projectId}/page/`;
export const logoKey = (projectId: string) => `${logoPrefix(projectId)}logo`;

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
}

function ascii(bytes: Uint8Array, at: number, text: string): boolean {
  return startsWith(
    bytes.subarray(at),
    [...text].map((ch) => ch.charCodeAt(0)),
  );
}

export const logoTooLarge = () =>
  `A logo is at most ${MAX_LOGO_BYTES} bytes (256 KiB): make it smaller, or save it at a lower quality`;

/** A type a logo may not be: the same sentence from the tool and the API. */
export const logoTypeRefused = (type: string) =>
  `A logo is a PNG, JPEG, WebP or GIF image (${LOGO_TYPES.join(', ')}), not '${type}'${
    /svg/i.test(type) ? ': an SVG image can carry script' : ''
  }`;

const isLogoType = (type: string): type is LogoType => Object.hasOwn(SIGNATURES, type);

/**
 * C44: the logo's type and bytes checked: one of LOGO_TYPES (the media type alone, lower case, its
 * parameters dropped), at most MAX_LOGO_BYTES, and bytes that start with that type's signature.
 * Returns what the project will say of it.
 */
export async function checkLogo(bytes: Uint8Array, given: string): Promise<Logo> {
  const type = (given.split(';')[0] ?? '').trim().toLowerCase();
  if (!isLogoType(type)) throw new InvalidInput(logoTypeRefused(type));
  if (bytes.length > MAX_LOGO_BYTES) throw new InvalidInput(logoTooLarge());
  const [name, signed] = SIGNATURES[type];
  if (!signed(bytes)) {
    throw new InvalidInput(
      `The logo's bytes are not a ${name} image, as its type ${type} says: send the type its bytes are`,
    );
  }
  return { type, size: bytes.length, sha256: await sha256Hex(bytes) };
}

/** Stores the logo, checked by R2 against its SHA-256; one that was there before is replaced. */
export async function putLogo(bucket: R2Bucket, projectId: string, bytes: Uint8Array, logo: Logo) {
  await bucket.put(logoKey(projectId), bytes, {
    httpMetadata: { contentType: logo.type },
    sha256: logo.sha256,
  });
}

export function deleteLogo(bucket: R2Bucket, projectId: string): Promise<void> {
  return bucket.delete(logoKey(projectId));
}
