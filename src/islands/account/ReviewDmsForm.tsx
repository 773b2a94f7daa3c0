/**
 * Review DMs: submits the checked Approve boxes (and 'Delete ignored DMs') of the server-rendered list
 * it wraps, then reloads the page so the list and the sidebar's pending dot show the new state.
 */
import type { ReactNode } from 'react';
import ApiForm from '../forms/ApiForm.tsx';
import { api } from '@site/client/api-client.ts';
import { apiPaths } from '@shared/api-paths.ts';

export default function ReviewDmsForm({ children }: { children?: ReactNode }) {
  async function submit(data: FormData) {
    await api.v1.post(apiPaths.reviewDms(), {
      approved_hashes: data.getAll('approved_hashes').map(String),
      delete_ignored: data.get('delete_ignored') === '1',
    });
    window.location.reload();
    // Keep 'Submitting...' until the reload replaces the page.
    await new Promise(() => {});
  }
  return (
    <ApiForm onSubmit={submit} submitLabel="Submit approved DMs." className="review-dms-form" aria-label="Review DMs">
      {children}
    </ApiForm>
  );
}
