// C41: moving a project to another place: copy everything (rows and files), verify, switch its
// routing, then delete the source copy. Submissions that arrive meanwhile are refused with 503 and
// Retry-After by the source database itself (a trigger), so none is lost and none is in both.
import { copyProjectFiles, deleteProjectFiles } from '../files/objects.ts';
import { Conflict, causeText, InvalidInput, UnavailableError } from '../lib/faults.ts';
import { copyProject, deleteProjectRows, fingerprint, isMovingCopy } from '../store/copy.ts';
import {
  abandonMove,
  beginMove,
  dropForwarding,
  formLookup,
  forwardTo,
  keyLookup,
  settlePlace,
  whereIs,
} from '../store/directory.ts';
import { listKeys } from '../store/projects.ts';
import { atProject, homeOf, type Manager, placesOf, recordChange, requireProject } from './context.ts';
import { atPlace } from './places.ts';
import { projectView } from './project-view.ts';

export type MoveReport = {
  from: string;
  to: string;
  /** The project's rows in each table, as copied and found equal on both sides. */
  rows: Record<string, number>;
  files: number;
};

/**
 * A move that stopped after its switch, before the source copy was deleted, left that copy marked
 * as moving (verified, and reached by nothing): it is deleted now. Returns its place, if any.
 */
async function finishSwitched(m: Manager, projectId: string, home: string): Promise<string | undefined> {
  for (const [place, db] of placesOf(m)) {
    if (place === home) continue;
    if (!(await isMovingCopy(db.$client, projectId))) continue;
    await deleteProjectRows(db.$client, projectId);
    return place;
  }
  return undefined;
}

/**
 * Moves the project to the place `to`. The source place refuses the project's new submissions from
 * the start (503, retried by clients with their Idempotency-Key) and its changes; the copy is
 * compared table by table (row counts and content hashes); only then is routing switched and the
 * source copy deleted. A failure before the switch leaves the project where it was, as it was.
 */
export async function moveProject(
  m: Manager,
  projectId: string,
  to: string,
): Promise<MoveReport & { project: ReturnType<typeof projectView> }> {
  // A move that stopped midway (its worker gone) left the project marked as moving: running the
  // move again takes it up, from the place it still lives in.
  const { place: from, movingTo } = await whereIs(homeOf(m), projectId);
  const source =
    movingTo === null
      ? await atProject(m, projectId)
      : { ...m, db: placesOf(m).get(from) ?? m.db, place: from };
  const target = atPlace(m, to).db;
  const finished = await finishSwitched(m, projectId, from);
  if (to === from) {
    if (finished === undefined) throw new InvalidInput(`Project '${projectId}' lives in '${to}' already`);
    const there = await requireProject(source, projectId);
    return { from: finished, to, rows: {}, files: 0, project: projectView(there, to) };
  }
  const p = await requireProject(source, projectId);
  if (m.files === undefined) {
    // Without the buckets, the files would stay behind and be deleted with the source copy.
    throw new InvalidInput("A move needs the worker's buckets: move through the worker (--url), or locally");
  }
  const fromFiles = m.files(from);
  const toFiles = m.files(to);
  if (fromFiles !== undefined && toFiles === undefined) {
    throw new InvalidInput(
      `The place '${to}' has no bucket for files (FILES_${to.toUpperCase()}): add one first`,
    );
  }
  const home = homeOf(m);
  await beginMove(home, source.db, p.id, from, to);
  let report: MoveReport;
  try {
    // What an earlier move that failed may have left there.
    await deleteProjectRows(target.$client, p.id);
    const rows = await copyProject(source.db.$client, target.$client, p.id);
    const files =
      fromFiles !== undefined && toFiles !== undefined ? await copyProjectFiles(fromFiles, toFiles, p.id) : 0;
    const [before, after] = await Promise.all([
      fingerprint(source.db.$client, p.id),
      fingerprint(target.$client, p.id),
    ]);
    for (const [table, seen] of Object.entries(before)) {
      const copy = after[table];
      if (copy?.rows !== seen.rows || copy.sha256 !== seen.sha256) {
        throw new Error(`the copy of ${table} differs (${seen.rows} rows there, ${copy?.rows ?? 0} here)`);
      }
    }
    report = { from, to, rows, files };
  } catch (error) {
    await deleteProjectRows(target.$client, p.id).catch(() => {});
    if (toFiles !== undefined) await deleteProjectFiles(toFiles, p.id).catch(() => {});
    await abandonMove(home, source.db, p.id, from);
    // D1 or R2 away: 503, try again. Anything else (a row the place refused, a copy that differs)
    // is named: the project is where it was.
    if (error instanceof UnavailableError) throw error;
    throw new Conflict(`The move of '${p.id}' to '${to}' was undone: ${causeText(error, 200)}`);
  }
  // The switch: the place it left forwards its keys and form address; every other place's
  // forwarding leads to its new place; the default database names it.
  const keys = await listKeys(source.db, p.id);
  const lookups = [
    ...keys.map((k) => keyLookup(k.keyHash)),
    ...(p.formId === null ? [] : [formLookup(p.formId)]),
  ];
  for (const [place, db] of placesOf(m)) {
    if (place === to) await dropForwarding(db, p.id);
    else await forwardTo(db, p.id, to, place === from ? lookups : []);
  }
  await settlePlace(home, p.id, to);
  // Only now, with the copy verified and in use, does the source copy go (its files with it, by
  // the place's sweep).
  await deleteProjectRows(source.db.$client, p.id);
  const there = { ...m, db: target, place: to };
  await recordChange(there, p.id, 'project.move', { from, to, files: report.files });
  return { ...report, project: projectView(await requireProject(there, p.id), to) };
}
