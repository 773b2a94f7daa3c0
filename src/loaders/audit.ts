/**
 * The administrators' audit log page (docs/product.md#audit-log): one page of lines, newest first,
 * filtered by actor and action with the API's rules (GET /api/v1/admin/audit), each line put in words.
 * Server side only.
 */
import type { SiteDeps } from './deps.ts';
import { AUDIT_ACTIONS, countAudit, listAudit, listAuditActors, type AuditEntry } from '@api/data/audit-log.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { paginate } from '@shared/pagination.ts';
import { auditQuerySchema } from '@shared/validation/audit.ts';
import { firstIssueMessage } from '@shared/validation/rules.ts';
import { requireAccess } from './account.ts';
import { badRequest, notFound, ok } from './outcome.ts';

const ACTION_WORDS: Record<string, string> = {
  role_change: 'Role changed',
  link_approve: 'Link request approved',
  link_reject: 'Link request rejected',
  link_remove: 'Links removed',
  takedown_creator: 'Creator taken down',
  takedown_post: 'Post taken down',
  do_not_post_lift: 'Do-not-post entry lifted',
  auto_import_round: 'Auto-import round',
  import_retry: 'Import retried',
  import_cancel: 'Import cancelled',
  flag_dismiss: 'Flag dismissed',
};

/** An action in words; an action without words of its own reads as its name. */
export function auditActionWords(action: string): string {
  const words = ACTION_WORDS[action] ?? action.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function valueText(value: unknown): string {
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  if (value === null || value === undefined) return '–';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The details of a line in one short sentence (plain text; the page escapes it). */
export function auditDetailsText(entry: Pick<AuditEntry, 'action' | 'details'>): string {
  const d = entry.details;
  if (!d) return '';
  if (entry.action === 'role_change' && 'old_role' in d) return `${valueText(d.old_role)} → ${valueText(d.new_role)}`;
  if (entry.action === 'auto_import_round') {
    if (d.requested) return 'Requested';
    if (d.started) return d.scheduled ? 'Started (fell due)' : 'Started (requested)';
    if (d.finished) return `Finished: ${valueText(d.queued)} queued, ${valueText(d.skipped)} skipped, ${valueText(d.failed)} failed`;
  }
  if (entry.action === 'link_remove' && Array.isArray(d.unlinked_from)) {
    return `${valueText(d.name)} unlinked from ${valueText(d.unlinked_from)}`;
  }
  return Object.entries(d)
    .map(([key, value]) => `${key.replace(/_/g, ' ')}: ${valueText(value)}`)
    .join('; ');
}

export async function loadAuditLog(deps: SiteDeps, request: Request, search: URLSearchParams) {
  const access = await requireAccess(deps, request, 'administrator');
  if (access.kind !== 'ok') return access;
  const query = auditQuerySchema(AUDIT_ACTIONS).safeParse({
    o: search.get('o') ?? undefined,
    actor: search.get('actor') ?? undefined,
    action: search.get('action') ?? undefined,
  });
  if (!query.success) return badRequest(firstIssueMessage(query.error));
  const { o: offset, actor, action } = query.data;
  const filter = { actorId: actor ?? null, action: action ?? null };
  const total = await countAudit(deps.db, filter);
  // Past the last page is a 404, like the account list; page 1 of nothing says the log is empty.
  if (offset > 0 && offset >= total) return notFound;
  return ok({
    filter: { actor: actor ?? null, action: action ?? null },
    entries: (await listAudit(deps.db, filter, { offset, limit: PAGE_SIZE })).map((entry) => ({
      ...entry,
      who: entry.actor_name ?? (entry.actor_id === null ? 'system' : `account ${entry.actor_id}`),
      words: auditActionWords(entry.action),
      summary: auditDetailsText(entry),
    })),
    actors: await listAuditActors(deps.db),
    actions: AUDIT_ACTIONS.map((value) => ({ value, words: auditActionWords(value) })),
    pagination: paginate(total, offset),
  });
}
