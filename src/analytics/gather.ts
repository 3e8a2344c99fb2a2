// C40: what an isolate does with form analytics' events: each becomes its visitor's day on the
// form (a view, a start, a leave, a submission), gathered in memory and written to D1 in one batch
// per interval (ANALYTICS_FLUSH_MS), so that D1 sees a bounded number of writes whatever the
// traffic, and a visitor's repeated events (a reload) cost nothing more. A visitor is a hash of their
// address, user agent, the project and the day's salt: never stored as such, and unlinkable across
// days once the salt is gone.
import { toHex } from '../lib/hex.ts';
import { saltOf, type Visit, writeVisits } from '../store/analytics.ts';
import { database } from '../store/db.ts';

export const EVENT_TYPES = ['view', 'start', 'leave', 'submit'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** An event as the endpoint checked it: what happened, and for a leave or a submission, where and when. */
export type Event = { type: EventType; field?: string | undefined; ms?: number | undefined };

/** Visitors one isolate holds before it writes them at once, whatever the interval. */
export const MAX_PENDING = 500;
/** Visitors kept for the next batch when a batch failed; beyond, the oldest failure is dropped (logged). */
const MAX_RETAINED = 5000;

/** A visitor of a project on a day: the hash, which cannot be made again once the day's salt is gone. */
export async function visitorOf(salt: string, address: string, userAgent: string, projectId: string) {
  const digest = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode([salt, address, userAgent, projectId].join('\n')),
  );
  return toHex(new Uint8Array(digest).slice(0, 16));
}

let salt: { day: string; value: Promise<string> } | undefined;

/** The day's salt, read (or made) once per isolate and day. */
export function daySalt(d1: D1Database, day: string): Promise<string> {
  if (salt?.day !== day) {
    const fresh = toHex(crypto.getRandomValues(new Uint8Array(32)));
    const value = saltOf(database(d1), day, fresh);
    salt = { day, value };
    value.catch(() => {
      if (salt?.value === value) salt = undefined;
    });
  }
  return salt.value;
}

/** A visit with what one event says. */
function visitOf(projectId: string, day: string, visitor: string, event: Event): Visit {
  const visit: Visit = {
    projectId,
    day,
    visitor,
    viewed: event.type === 'view',
    started: event.type !== 'view',
    submitted: event.type === 'submit',
    submitMs: event.type === 'submit' ? (event.ms ?? null) : null,
    left: event.type === 'leave' ? { field: event.field ?? null, ms: event.ms ?? 0 } : null,
  };
  return visit;
}

/** What two visits of the same visitor say together, `later` after `earlier`. */
export function merged(earlier: Visit, later: Visit): Visit {
  return {
    ...later,
    viewed: earlier.viewed || later.viewed,
    started: earlier.started || later.started,
    submitted: earlier.submitted || later.submitted,
    submitMs: later.submitMs ?? earlier.submitMs,
    left: later.left ?? earlier.left,
  };
}

/** How much was gathered and written by this isolate: what the bench and the tests read. */
export const tally = { events: 0, batches: 0, rows: 0, failures: 0 };

class Gathered {
  pending = new Map<string, Visit>();
  scheduled: Promise<void> | undefined;
  /** The last batch failed: the next waits for the interval, however many visitors are kept. */
  failing = false;
  readonly d1: D1Database;
  constructor(d1: D1Database) {
    this.d1 = d1;
  }

  add(visit: Visit): void {
    const id = `${visit.projectId} ${visit.day} ${visit.visitor}`;
    const known = this.pending.get(id);
    this.pending.set(id, known === undefined ? visit : merged(known, visit));
  }

  /** Writes everything gathered in one batch; what fails is kept for the next one. */
  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const visits = [...this.pending.values()];
    this.pending = new Map();
    try {
      await writeVisits(database(this.d1), visits);
      this.failing = false;
      tally.batches++;
      tally.rows += visits.length;
    } catch (error) {
      this.failing = true;
      tally.failures++;
      // Kept, older than what came since; bounded, so that an outage cannot grow memory.
      const kept = visits.slice(-MAX_RETAINED);
      const newer = this.pending;
      this.pending = new Map();
      for (const v of kept) this.add(v);
      for (const v of newer.values()) this.add(v);
      console.error(
        JSON.stringify({
          level: 'error',
          job: 'analytics',
          visitors: visits.length,
          dropped: visits.length - kept.length,
          error: String(error).slice(0, 200),
        }),
      );
    }
  }
}

const gathered = new Map<D1Database, Gathered>();

/**
 * Gathers one event. The batch is written `flushMs` after the first event that found nothing
 * pending (kept alive by `waitUntil`), or at once when MAX_PENDING visitors wait.
 */
export function gather(
  d1: D1Database,
  waitUntil: (work: Promise<unknown>) => void,
  flushMs: number,
  projectId: string,
  day: string,
  visitor: string,
  event: Event,
): void {
  let g = gathered.get(d1);
  if (g === undefined) {
    g = new Gathered(d1);
    gathered.set(d1, g);
  }
  tally.events++;
  g.add(visitOf(projectId, day, visitor, event));
  const batch = g;
  // Many waiting: written at once, unless the last batch failed (D1 is down, say): then the kept
  // visitors wait for the interval, so that an outage never costs a batch per event.
  if (batch.pending.size >= MAX_PENDING && !batch.failing) {
    waitUntil(batch.flush());
    return;
  }
  if (batch.scheduled === undefined) {
    const done = new Promise((resolve) => setTimeout(resolve, flushMs))
      .then(() => {
        batch.scheduled = undefined;
        return batch.flush();
      })
      .catch(() => {
        batch.scheduled = undefined;
      });
    batch.scheduled = done;
    waitUntil(done);
  }
}
