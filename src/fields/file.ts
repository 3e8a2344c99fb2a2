// C30: a file as a `file` field holds it between the upload and the write: its bytes, the type
// judged from them, and the metadata that is stored. Only the HTML form endpoint makes one; a JSON
// body cannot (no JSON value is an instance of a class), so the JSON endpoint refuses every value
// of a `file` field with the type's message.

/** What the submission stores for a file field. */
export type FileMetadata = { name: string; type: string; size: number; sha256: string };

export class UploadedFile {
  readonly name: string;
  readonly type: string;
  readonly size: number;
  readonly sha256: string;
  readonly bytes: Uint8Array;

  constructor(metadata: FileMetadata, bytes: Uint8Array) {
    this.name = metadata.name;
    this.type = metadata.type;
    this.size = metadata.size;
    this.sha256 = metadata.sha256;
    this.bytes = bytes;
  }

  /** Stored as its metadata; the bytes go to R2. */
  toJSON(): FileMetadata {
    return { name: this.name, type: this.type, size: this.size, sha256: this.sha256 };
  }
}

/**
 * C30: the types a browser runs script in when it shows them: HTML, SVG and XML (any `+xml`), and
 * scripts themselves.
 */
export function scriptCapable(type: string): boolean {
  const media = (type.split(';')[0] ?? '').trim().toLowerCase();
  return (
    /^(?:text\/html|application\/xml|text\/xml|[a-z0-9.+-]+\/[a-z0-9.+-]*\+xml)$/.test(media) ||
    /^(?:text|application)\/(?:x-)?(?:javascript|ecmascript)$/.test(media)
  );
}

/**
 * `accept` as HTML's attribute means it, for a type judged from the bytes: exact, or `type/*`. C30:
 * a wildcard never admits a script-capable type; only its own exact type does.
 */
export function accepts(accept: readonly string[], type: string): boolean {
  const [major] = type.split('/');
  const wildcard = !scriptCapable(type);
  return accept.some((a) => a === type || (wildcard && a.endsWith('/*') && a.slice(0, -2) === major));
}

/** A size for people: bytes, kB or MB (1 kB = 1000 bytes, as the rules are written). */
export function sizeText(bytes: number): string {
  if (bytes >= 1_000_000 && bytes % 100_000 === 0) return `${bytes / 1_000_000} MB`;
  if (bytes >= 1000 && bytes % 100 === 0) return `${bytes / 1000} kB`;
  return `${bytes} bytes`;
}
