/** The account's stored session keys (rendered on demand, never stored): what GET /account/keys answers. */
import type { SiteDeps } from './deps.ts';
import { listAccountKeys, type AutoImportKey } from '@api/data/auto-import-keys.ts';
import { requireAccess } from './account.ts';
import { ok, type PageOutcome } from './outcome.ts';

export type KeyView = Pick<AutoImportKey, 'id' | 'service' | 'dead' | 'added' | 'import_ids'>;

export async function loadAccountKeys(deps: SiteDeps, request: Request): Promise<PageOutcome<{ keys: KeyView[] }>> {
  const access = await requireAccess(deps, request, 'account');
  if (access.kind !== 'ok') return access;
  const keys = (await listAccountKeys(deps.db, access.data.account.id)).map(({ id, service, dead, added, import_ids }) => ({
    id,
    service,
    dead,
    added,
    import_ids,
  }));
  return ok({ keys });
}
