/**
 * The importer pages' data (rendered on demand, never stored): whether the visitor is signed in (the
 * include-DMs checkbox), and an import with its log for the status page. Server side only.
 */
import { getImport, getImportLogs } from '../../../api/data/imports.ts';
import { archiveDb } from '../server/db.ts';
import { pageAccount } from './account.ts';

export interface ImportView {
  id: string;
  service: string;
  priority: number;
  sub_count: number | null;
  save_dms: boolean;
  created_at: string;
  first_started_at: string | null;
  retry_count: number;
  current_try_started_at: string | null;
  resuming_at: string | null;
  finished_at: string | null;
  key_failed_at: string | null;
  is_key_invalid: boolean;
}

export function loadImporterForm(request: Request): { signedIn: boolean } {
  return { signedIn: pageAccount(request) !== null };
}

/** The import (only its public fields) and log lines, or null when there is no such import. */
export function loadImportStatus(importId: string | undefined): { view: ImportView; logs: string[] } | null {
  const found = importId ? getImport(archiveDb(), importId) : undefined;
  if (!found) return null;
  const { account_id: _account, key_id: _key, channel_ids: _channels, save_session_key: _save, auto_import: _auto, ...view } = found;
  return { view, logs: getImportLogs(archiveDb(), found.id) };
}
