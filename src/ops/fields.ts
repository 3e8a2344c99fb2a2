// C19, C28: a project's fields and allowed origins.
import { checkConditions, namesOf } from '../fields/conditions.ts';
import { DISPLAY_MEMBERS, type FieldDisplay, withoutEmpty } from '../fields/display.ts';
import type { FieldDef } from '../fields/validation.ts';
import { Conflict, InvalidInput, NotFound } from '../lib/faults.ts';
import {
  addField as appendField,
  removeField as deleteField,
  removeOrigin as deleteOrigin,
  addOrigin as insertOrigin,
  setField as replaceField,
} from '../store/projects.ts';
import { type Manager, recordChange, requireProject } from './context.ts';
import { parseOrigin } from './input.ts';
import { fieldDef } from './project-view.ts';

/**
 * C45: a project's fields as they would be, each condition checked against the fields before it
 * (and its values against their types), and given back parsed; a bad one is 400, naming it.
 */
export function withConditions(defs: readonly FieldDef[]): FieldDef[] {
  const parsed = checkConditions(defs);
  // C46: a page in steps shows a field once its step is reached; its condition may wait only on
  // fields shown by then, so on its own step or an earlier one.
  const stepOf = new Map(defs.map((d) => [d.name, d.step ?? 1]));
  for (const d of defs) {
    const when = parsed.get(d.name);
    if (when === undefined) continue;
    const later = namesOf(when).find((name) => (stepOf.get(name) ?? 1) > (d.step ?? 1));
    if (later !== undefined) {
      throw new InvalidInput(
        `The condition of field '${d.name}' (step ${d.step ?? 1}) names field '${later}', which is on a later step (${stepOf.get(later)}): a condition names fields on its own step or before`,
      );
    }
  }
  return defs.map((d) => {
    const when = parsed.get(d.name);
    const { when: _, ...rest } = d;
    return when === undefined ? rest : { ...rest, when };
  });
}

/**
 * Defines a field (checked already, by the caller's grammar): `add` a new one after the last,
 * `replace` an existing one in its place (type, required, rules: its whole definition; C44: what it
 * shows as far as `def` gives it, the rest kept), or either. Returns whether it was added, and the
 * field as it is now.
 */
export async function defineField(
  m: Manager,
  projectId: string,
  given: FieldDef,
  mode: 'add' | 'replace' | 'either',
): Promise<{ added: boolean; field: FieldDef }> {
  const p = await requireProject(m, projectId);
  const row = p.fields.find((f) => f.name === given.name);
  const exists = row !== undefined;
  if (exists && mode === 'add')
    throw new Conflict(`Field '${given.name}' already exists in project '${p.id}'`);
  if (!exists && mode === 'replace') {
    throw new NotFound(`Project '${p.id}' has no field '${given.name}'`, 'add it with: forms field add');
  }
  if (p.honeypot === given.name) {
    throw new Conflict(`'${given.name}' is the honeypot of project '${p.id}': it cannot be a field`);
  }
  // C45: the fields as they will be, each condition holding to the fields before it.
  const current = p.fields.map(fieldDef);
  // C46: its step as it will be (kept unless given), for the conditions' check.
  const kept = given.step === undefined && row?.step != null ? { ...given, step: row.step } : given;
  const after = exists ? current.map((f) => (f.name === given.name ? kept : f)) : [...current, kept];
  const checked = withConditions(after).find((f) => f.name === given.name);
  const { when: _w, ...unconditional } = given;
  const def: FieldDef =
    checked?.when === undefined ? unconditional : { ...unconditional, when: checked.when };
  if (exists) await replaceField(m.db, p.id, def);
  else await appendField(m.db, p.id, def);
  await recordChange(m, p.id, 'field.define', { ...def, added: !exists });
  const { label: _l, help: _h, placeholder: _p, multiline: _m, step: _s, ...checks } = def;
  const before: FieldDisplay = row === undefined ? {} : fieldDef(row);
  const field: FieldDef = { ...checks };
  for (const member of DISPLAY_MEMBERS) {
    const shows = def[member] ?? before[member];
    if (shows !== undefined) field[member] = shows;
  }
  const multiline = def.multiline === undefined ? before.multiline : def.multiline;
  if (multiline !== undefined) field.multiline = multiline;
  const step = def.step === undefined ? before.step : def.step;
  if (step !== undefined) field.step = step;
  return { added: !exists, field: withoutEmpty(field) };
}

/** Removes a field; submissions stored keep their values of it. */
export async function removeField(m: Manager, projectId: string, name: string): Promise<void> {
  const p = await requireProject(m, projectId);
  // C45: a field another's condition names stays until that condition no longer names it.
  const namedBy = p.fields.map(fieldDef).find((f) => f.when !== undefined && namesOf(f.when).includes(name));
  if (namedBy !== undefined) {
    throw new Conflict(
      `Field '${name}' is named by the condition of field '${namedBy.name}': change that condition first`,
    );
  }
  if (!(await deleteField(m.db, p.id, name))) throw new NotFound(`Project '${p.id}' has no field '${name}'`);
  await recordChange(m, p.id, 'field.remove', { name });
}

/** C15: allows an origin; once any is listed, requests from others get 403. Returns it normalised. */
export async function addOrigin(m: Manager, projectId: string, text: string): Promise<string> {
  const origin = parseOrigin(text);
  const p = await requireProject(m, projectId);
  if (p.origins.some((o) => o.origin === origin)) {
    throw new Conflict(`Origin '${origin}' is already allowed for project '${p.id}'`);
  }
  await insertOrigin(m.db, p.id, origin);
  await recordChange(m, p.id, 'origin.add', { origin });
  return origin;
}

export async function removeOrigin(m: Manager, projectId: string, text: string): Promise<string> {
  const origin = parseOrigin(text);
  const p = await requireProject(m, projectId);
  if (!(await deleteOrigin(m.db, p.id, origin))) {
    throw new NotFound(`Origin '${origin}' is not in the list of project '${p.id}'`);
  }
  await recordChange(m, p.id, 'origin.remove', { origin });
  return origin;
}
