// A bounded cache with a time to live: a Map in least-recently-used order (a hit moves its entry to
// the end; past the bound, the first entry goes). Written out rather than taken from quick-lru,
// which cost 3.3 KB of a 35 KiB bundle for what these lines do.
export class Lru<K, V> {
  readonly #entries = new Map<K, { value: V; expires: number }>();
  readonly #maxSize: number;
  readonly #ttlMs: number;

  constructor(maxSize: number, ttlMs: number) {
    this.#maxSize = maxSize;
    this.#ttlMs = ttlMs;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K, now = Date.now()): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    if (entry.expires <= now) return undefined;
    this.#entries.set(key, entry);
    return entry.value;
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  set(key: K, value: V, now = Date.now()): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expires: now + this.#ttlMs });
    if (this.#entries.size > this.#maxSize) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }
}
