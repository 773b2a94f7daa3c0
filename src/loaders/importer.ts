/**
 * The importer pages' data (rendered on demand, never stored): whether the visitor is signed in (the
 * include-DMs checkbox), and an import with its log for the status page. Server side only.
 */
import type { SiteDeps } from './deps.ts';
import { getImport, getImportLogs, publicImport, type PublicImport } from '@api/data/imports.ts';
import { pageAccount } from './account.ts';

export type ImportView = PublicImport;

export async function loadImporterForm(deps: SiteDeps, request: Request): Promise<{ signedIn: boolean }> {
  return { signedIn: (await pageAccount(deps, request)) !== null };
}

/** The import (only its public fields) and log lines, or null when there is no such import. */
export async function loadImportStatus(deps: SiteDeps, importId: string | undefined): Promise<{ view: ImportView; logs: string[] } | null> {
  const found = importId ? await getImport(deps.db, importId) : undefined;
  if (!found) return null;
  return { view: publicImport(found), logs: await getImportLogs(deps.db, found.id) };
}
