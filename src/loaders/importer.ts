/**
 * The importer pages' data (rendered on demand, never stored): whether the visitor is signed in (the
 * include-DMs checkbox), and an import with its log for the status page. Server side only.
 */
import { getImport, getImportLogs, publicImport, type PublicImport } from '@api/data/imports.ts';
import { archiveDb } from './archive-db.ts';
import { pageAccount } from './account.ts';

export type ImportView = PublicImport;

export function loadImporterForm(request: Request): { signedIn: boolean } {
  return { signedIn: pageAccount(request) !== null };
}

/** The import (only its public fields) and log lines, or null when there is no such import. */
export function loadImportStatus(importId: string | undefined): { view: ImportView; logs: string[] } | null {
  const found = importId ? getImport(archiveDb(), importId) : undefined;
  if (!found) return null;
  return { view: publicImport(found), logs: getImportLogs(archiveDb(), found.id) };
}
