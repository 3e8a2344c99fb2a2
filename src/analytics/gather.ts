// C40: what an isolate does with form analytics' events: each becomes its visitor's day on the
// form (a view, a start, a leave, a submission), gathered in memory and written to D1 in one batch
// per interval (ANALYTICS_FLUSH_MS), so that D1 sees a bounded number of writes whatever the
// traffic, and a visitor's repeated events (a reload) cost nothing more. A visitor is a hash of their
// address, a share of their user agent, the project and the day's salt of the project's place:
// never stored as such, and unlinkable across days once the salt is gone.
import type { D1Database } from '@cloudflare/workers-types';
import { clientOf } from '../lib/clients.ts';
import { toHex } from '../lib/hex.ts';
import { saltOf, type Visit, type Whereabouts, whereaboutsOf, writeVisits } from '../store/analytics.ts';
import { database } from '../store/db.ts';
import { type Place, placeNamed, placeOf } from '../store/places.ts';

export const EVENT_TYPES = ['view', 'start', 'leave', 'submit'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** An event as the endpoint checked it: what happened, and for a leave or a submission, where and when. */
export type Event = { type: EventType; field?: string | undefined; ms?: number | undefined };

/** Visitors one isolate holds before it writes them at once, whatever the interval. */
export const MAX_PENDING = 500;
/** Visitors kept for the next batch when a batch failed; beyond, the oldest failure is dropped (logged). */
const MAX_RETAINED = 5000;

/**
 * C40: the most visitors one address (an IPv4 address, an IPv6 /64) adds to one form in a day.
 * The user agent tells browsers behind one address apart (an office, a home) only this far: it
 * counts as one of these shares, so a script that changes its user agent with every event adds at
 * most this many visitors, however many it sends.
 */
export const VISITORS_PER_ADDRESS = 32;

/** C40: a time an event reports counts as at most an hour: one forged time moves an average or a median so far only. */
export const COUNTED_MS = 3_600_000;

/** Which of an address's shares a user agent falls in (FNV-1a: the spread matters, not secrecy). */
export function shareOf(userAgent: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < userAgent.length; i++) {
    hash ^= userAgent.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % VISITORS_PER_ADDRESS;
}

/** A visitor of a project on a day: the hash, which cannot be made again once the day's salt is gone. */
export async function visitorOf(salt: string, address: string, userAgent: string, projectId: string) {
  const client = address === '' ? '' : clientOf(address);
  const digest = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode([salt, client, String(shareOf(userAgent)), projectId].join('\n')),
  );
  return toHex(new Uint8Array(digest).slice(0, 16));
}

// C41: each place's own salt: a visitor of a project is hashed with the salt of the project's place,
// which never leaves it.
const salts = new WeakMap<D1Database, { day: string; value: Promise<string> }>();

/** The day's salt of the place whose database this is, read (or made) once per isolate and day. */
export function daySalt(d1: D1Database, day: string): Promise<string> {
  const known = salts.get(d1);
  if (known?.day === day) return known.value;
  const fresh = toHex(crypto.getRandomValues(new Uint8Array(32)));
  const value = saltOf(database(d1), day, fresh);
  salts.set(d1, { day, value });
  value.catch(() => {
    if (salts.get(d1)?.value === value) salts.delete(d1);
  });
  return value;
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
    submitMs: event.type === 'submit' && event.ms !== undefined ? Math.min(event.ms, COUNTED_MS) : null,
    left:
      event.type === 'leave' ? { field: event.field ?? null, ms: Math.min(event.ms ?? 0, COUNTED_MS) } : null,
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

/** C41: rounds a batch waits for a move to end (its visits kept), each an interval longer. */
const MOVE_ROUNDS = 8;

class Gathered {
  pending = new Map<string, Visit>();
  scheduled: Promise<void> | undefined;
  /** The last batch failed: the next waits for the interval, however many visitors are kept. */
  failing = false;
  /** C41: visitors kept because their project is being moved: written once it is there. */
  waiting = false;
  readonly place: Place;
  env: object;
  constructor(place: Place, env: object) {
    this.place = place;
    this.env = env;
  }

  add(visit: Visit): void {
    const id = `${visit.projectId} ${visit.day} ${visit.visitor}`;
    const known = this.pending.get(id);
    this.pending.set(id, known === undefined ? visit : merged(known, visit));
  }

  /**
   * Writes everything gathered in one batch; what fails is kept for the next one. C41: a visit of a
   * project that has moved since its isolate cached it goes to its new place; one of a project
   * being moved waits, kept, until it is there; one of a deleted project is dropped.
   */
  async flush(hops = 0): Promise<void> {
    if (this.pending.size === 0) return;
    const visits = [...this.pending.values()];
    this.pending = new Map();
    this.waiting = false;
    let unwritten: Visit[];
    try {
      unwritten = await writeVisits(database(this.place.d1), visits);
      this.failing = false;
      tally.batches++;
      tally.rows += visits.length - unwritten.length;
    } catch (error) {
      this.keep(visits, error);
      return;
    }
    if (unwritten.length === 0) return;
    let where: Map<string, Whereabouts>;
    try {
      where = await whereaboutsOf(
        database(this.place.d1),
        unwritten.map((v) => v.projectId),
        this.place.name,
      );
    } catch (error) {
      this.keep(unwritten, error);
      return;
    }
    const routed = new Set<Gathered>();
    for (const visit of unwritten) {
      const w = where.get(visit.projectId);
      if (w === undefined) continue;
      const there = 'movedTo' in w ? placeNamed(this.env, w.movedTo) : undefined;
      if ('moving' in w || there === undefined || hops > 0) {
        this.add(visit);
        this.waiting = true;
        continue;
      }
      const other = gatheredAt(there, this.env);
      other.add(visit);
      routed.add(other);
    }
    for (const other of routed) await other.flush(hops + 1);
  }

  /** A batch that failed: kept, older than what came since; bounded, so that an outage cannot grow memory. */
  private keep(visits: Visit[], error: unknown): void {
    this.failing = true;
    tally.failures++;
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

const gathered = new WeakMap<D1Database, Gathered>();

function gatheredAt(place: Place, env: object): Gathered {
  let g = gathered.get(place.d1);
  if (g === undefined) {
    g = new Gathered(place, env);
    gathered.set(place.d1, g);
  }
  g.env = env;
  return g;
}

/** The batch is written `flushMs` from now; while visitors wait for a move, again, a while longer each time. */
function schedule(
  batch: Gathered,
  waitUntil: (work: Promise<unknown>) => void,
  flushMs: number,
  round = 0,
): void {
  const done = new Promise((resolve) => setTimeout(resolve, flushMs * (round + 1)))
    .then(async () => {
      batch.scheduled = undefined;
      await batch.flush();
      if (batch.waiting && batch.scheduled === undefined && round + 1 < MOVE_ROUNDS) {
        schedule(batch, waitUntil, flushMs, round + 1);
        await batch.scheduled;
      }
    })
    .catch(() => {
      batch.scheduled = undefined;
    });
  batch.scheduled = done;
  waitUntil(done);
}

/**
 * Gathers one event of a project in a place (C41: the place its key or form address led to). The
 * batch is written `flushMs` after the first event that found nothing pending (kept alive by
 * `waitUntil`), or at once when MAX_PENDING visitors wait.
 */
export function gather(
  env: object,
  placeName: string,
  waitUntil: (work: Promise<unknown>) => void,
  flushMs: number,
  projectId: string,
  day: string,
  visitor: string,
  event: Event,
): void {
  const batch = gatheredAt(placeOf(env, placeName), env);
  tally.events++;
  batch.add(visitOf(projectId, day, visitor, event));
  // Many waiting: written at once, unless the last batch failed (D1 is down, say): then the kept
  // visitors wait for the interval, so that an outage never costs a batch per event.
  if (batch.pending.size >= MAX_PENDING && !batch.failing) {
    waitUntil(batch.flush());
    return;
  }
  if (batch.scheduled === undefined) schedule(batch, waitUntil, flushMs);
}
