// C25, C19: erasure of a project's submissions, by the value a field holds.
import { eraseSubmissions, type FieldValue } from '../store/submissions.ts';
import { type Manager, projectIdOf, recordChange } from './context.ts';
import { parseErasureValue } from './input.ts';

/**
 * C25: deletes every submission of the project whose field holds exactly the value (a JSON
 * scalar). Returns how many.
 */
export async function eraseValue(m: Manager, projectId: string, field: string, value: FieldValue) {
  const p = await projectIdOf(m, projectId);
  // C46: and the drafts of its hosted page that hold it (counted apart: they were never submitted).
  const { submissions: erased, drafts } = await eraseSubmissions(m.db, p, field, value);
  // The value is what someone submitted (an address, a name): the log keeps only the field.
  await recordChange(m, p, 'submissions.erase', { field, erased, drafts });
  return { projectId: p, field, value, erased };
}

/** C25, as the tool takes the value: a string from `--value`, or any JSON scalar from `--json-value`. */
export function erase(
  m: Manager,
  projectId: string,
  field: string,
  given: { value?: string | undefined; jsonValue?: string | undefined },
) {
  return eraseValue(m, projectId, field, parseErasureValue(given.value, given.jsonValue));
}
