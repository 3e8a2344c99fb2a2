// C25, C19: erasure of a project's submissions, by the value a field holds.
import { eraseSubmissions } from '../store/submissions.ts';
import { type Manager, requireProject } from './context.ts';
import { parseErasureValue } from './input.ts';

/**
 * C25: deletes every submission of the project whose field holds exactly the value (a string from
 * `--value`, or any JSON scalar from `--json-value`). Returns how many.
 */
export async function erase(
  m: Manager,
  projectId: string,
  field: string,
  given: { value?: string | undefined; jsonValue?: string | undefined },
) {
  const value = parseErasureValue(given.value, given.jsonValue);
  const p = await requireProject(m, projectId);
  const erased = await eraseSubmissions(m.db, p.id, field, value);
  return { projectId: p.id, field, value, erased };
}
