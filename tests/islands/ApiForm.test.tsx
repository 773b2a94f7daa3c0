/** Server rendering only (no DOM library is installed): the states visible before any interaction. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import ApiForm, { FORM_STATUS } from '@site/islands/forms/ApiForm.tsx';

const noop = async () => {};

describe('ApiForm', () => {
  it("waits for hydration: without an action of its own the server's form says 'Loading...' and cannot be sent", () => {
    const html = renderToStaticMarkup(<ApiForm onSubmit={noop} submitLabel="Login" id="login" />);
    expect(html).toContain(`id="login-status">${FORM_STATUS.loading}</p>`);
    expect(html).toMatch(/<button type="submit" disabled="" aria-describedby="login-status">Login<\/button>/);
  });

  it("shows 'Ready for submit' in an aria-live status when the form has a plain-HTML path", () => {
    const html = renderToStaticMarkup(
      <ApiForm onSubmit={noop} submitLabel="Login" id="login" action="/search" method="get">
        <input name="username" />
      </ApiForm>,
    );
    expect(html).toContain('<p class="api-form-status" role="status" aria-live="polite" id="login-status">Ready for submit</p>');
    expect(html).toContain('<input name="username"/>');
    expect(html).toMatch(/<button type="submit" aria-describedby="login-status">Login<\/button>/);
    expect(html).not.toContain('role="alert"');
  });

  it("shows 'Loading...' and disables submitting while data loads", () => {
    const html = renderToStaticMarkup(<ApiForm onSubmit={noop} loading />);
    expect(html).toContain(`>${FORM_STATUS.loading}</p>`);
    expect(html).toMatch(/<button type="submit" disabled="">/);
    expect(html).toContain('aria-busy="true"');
  });

  it('lists given errors and honours submitDisabled', () => {
    const html = renderToStaticMarkup(<ApiForm onSubmit={noop} submitDisabled errors={['Please select a creator.']} action="/x" />);
    expect(html).toContain('<ul class="api-form-errors" role="alert"><li>Please select a creator.</li></ul>');
    expect(html).toMatch(/<button type="submit" disabled="">/);
    expect(html).toContain('Ready for submit');
  });

  it('names the three states exactly', () => {
    expect(FORM_STATUS).toEqual({ loading: 'Loading...', submitting: 'Submitting...', ready: 'Ready for submit' });
  });
});
