/** Server rendering only (no DOM library is installed): the importer form as it is before hydration. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import ImporterForm from '@site/islands/importer/ImporterForm.tsx';
import { IMPORTER_SERVICES } from '@shared/importer.ts';

describe('ImporterForm', () => {
  it('holds the Paysite choice until the island can follow it (hydration would undo an earlier one)', () => {
    const html = renderToStaticMarkup(<ImporterForm signedIn={false} />);
    expect(html).toMatch(/<select id="[^"]+-service" name="service" disabled="">/);
    expect(html).toMatch(/<button type="submit" disabled=""[^>]*>Submit Key<\/button>/);
  });

  it("shows the first paysite's inputs first", () => {
    const html = renderToStaticMarkup(<ImporterForm signedIn />);
    const [first] = IMPORTER_SERVICES;
    expect(html).toContain(`<option value="${first.service}" selected="">${first.label}</option>`);
    expect(html).toContain(`name="${first.fields[0].name}"`);
  });
});
