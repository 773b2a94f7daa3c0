import { describe, expect, it } from 'vitest';
import { escapeHtml } from '@shared/html.ts';
import { escapeHtml as importerEscape } from '@api/importer/text.ts';
import { escapeHtml as fakesEscape } from '../fakes/kit/server.ts';

describe('escapeHtml', () => {
  it('escapes the five characters that matter in content and attributes', () => {
    expect(escapeHtml(`<a href="x">Tom & Jerry's</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;');
    expect(escapeHtml('plain text, 猫')).toBe('plain text, 猫');
  });

  it("escapes the apostrophe, so a value cannot end a single-quoted attribute (the seed's copy left it)", () => {
    const value = escapeHtml("x' onmouseover='alert(1)");
    expect(value).toBe('x&#39; onmouseover=&#39;alert(1)');
    expect(`<a title='${value}'>`).not.toMatch(/title='[^']*'\s+onmouseover/);
  });

  it('escapes an already escaped text again (it takes plain text)', () => {
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });

  it('is the one the importer and the fake paysites use', () => {
    expect(importerEscape).toBe(escapeHtml);
    expect(fakesEscape).toBe(escapeHtml);
  });
});
