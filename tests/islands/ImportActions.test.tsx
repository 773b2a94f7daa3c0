/** Server rendering only (no DOM library is installed); the clicks are in tests/e2e/imports-dashboard.spec.ts. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import ImportActions, { KEY_GONE_NOTE } from '@site/islands/moderation/ImportActions.tsx';
import type { ImportState } from '@shared/import-state.ts';

const render = (state: ImportState, canRetry = false, canCancel = false) =>
  renderToStaticMarkup(<ImportActions importId="0a1b2c3d4e5f6a7b" state={state} canRetry={canRetry} canCancel={canCancel} />);
const buttons = (html: string) =>
  [...html.matchAll(/<button[^>]*aria-label="([^"]+)"[^>]*>([^<]+)<\/button>/g)].map((m) => `${m[2]}: ${m[1]}`);

describe('ImportActions', () => {
  it('offers Cancel for a queued, waiting or running import and names the import on the button', () => {
    for (const state of ['queued', 'waiting', 'running'] as const) {
      const html = render(state, false, true);
      expect(buttons(html)).toEqual(['Cancel: Cancel import 0a1b2c3d4e5f6a7b']);
      expect(html).not.toContain(KEY_GONE_NOTE);
    }
    expect(render('waiting', false, true)).toContain('<span class="import-actions__state" data-state="waiting">Waiting to retry</span>');
  });

  it('offers Retry for a failed import whose key is kept, and says the submitter must import again when it is gone', () => {
    expect(buttons(render('failed', true))).toEqual(['Retry: Retry import 0a1b2c3d4e5f6a7b']);
    expect(render('failed', true)).not.toContain(KEY_GONE_NOTE);
    const gone = render('failed');
    expect(buttons(gone)).toEqual([]);
    expect(gone).toContain(KEY_GONE_NOTE);
  });

  it('offers nothing for a finished or cancelled import', () => {
    expect(buttons(render('finished'))).toEqual([]);
    const cancelled = render('cancelled');
    expect(buttons(cancelled)).toEqual([]);
    expect(cancelled).toContain('>Cancelled</span>');
    expect(cancelled).not.toContain(KEY_GONE_NOTE);
  });
});
