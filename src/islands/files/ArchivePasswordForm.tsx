/**
 * The archive password form (docs/product.md#archive-file-page): shown when an archive needs a password
 * that is not known. 'Please enter a password.' when empty; a wrong one shows the server's
 * 'Invalid password.' and the form is ready again; a correct one is stored by the server, and the
 * page is loaded again to show the password and the list it opens.
 */
import { useId } from 'react';
import ApiForm from '../forms/ApiForm.tsx';
import { api } from '@site/client/api-client.ts';
import { apiPaths } from '@shared/api-paths.ts';

export const PASSWORD_REQUIRED = 'Please enter a password.';

export interface ArchivePasswordFormProps {
  hash: string;
  /** After a correct password (default: reload the page, which now shows the list). */
  onUnlocked?: () => void;
}

export default function ArchivePasswordForm({ hash, onUnlocked }: ArchivePasswordFormProps) {
  const inputId = useId();
  async function submit(data: FormData): Promise<readonly string[] | undefined> {
    const password = String(data.get('password') ?? '');
    if (password === '') return [PASSWORD_REQUIRED];
    // The site's call is v1 with the password alone in an array, as kemono's (v2 takes {password}).
    await api.v1.patch(apiPaths.archiveFile(hash), [password]);
    (onUnlocked ?? (() => window.location.reload()))();
  }
  return (
    <ApiForm onSubmit={submit} submitLabel="Submit" className="archive-password-form" aria-label="Archive password">
      <label htmlFor={inputId}>This archive needs a password. Enter it to see the files inside:</label>
      <input id={inputId} name="password" type="password" autoComplete="off" spellCheck={false} />
    </ApiForm>
  );
}
