// C32: a project's audit log, newest first, as its caller may see it. The tool and the management
// API both call this.
import { type AuditEntry, listAudit } from '../store/audit.ts';
import { isOperator, type Manager, projectIdOf } from './context.ts';

/** C34: a page of the audit log, unless asked for fewer or more (at most the inbox's MAX_PAGE). */
export const AUDIT_PAGE = 100;

/** C32: the project's audit log, newest first, `limit` entries before the entry `before`. */
export async function auditLog(
  m: Manager,
  projectId: string,
  options: { before?: string | undefined; limit?: number } = {},
): Promise<{ entries: AuditEntry[]; more: boolean }> {
  const p = await projectIdOf(m, projectId);
  const limit = options.limit ?? AUDIT_PAGE;
  const rows = await listAudit(m.db, p, { before: options.before, limit: limit + 1 });
  // C37: a project's key sees the operator's changes as the operator's, never who (an Access
  // identity is a person's address).
  const shown = isOperator(m.actor)
    ? rows
    : rows.map((r) =>
        r.actor.startsWith('access:') || r.actor === 'tool' ? { ...r, actor: 'operator' } : r,
      );
  return { entries: shown.slice(0, limit), more: rows.length > limit };
}
