/** Post HTML sanitizing: an allowlist that never lets script run and keeps images to the archive's files. */
import { describe, expect, it } from 'vitest';
import { isArchiveImage, sanitizePostHtml } from '@api/content/sanitize.ts';

const HASH = 'ab'.repeat(32);
const FILE = `/ab/ab/${HASH}.png`;

describe('sanitizePostHtml', () => {
  it('removes scripts, event handlers, styles and frames', () => {
    const html = sanitizePostHtml(
      `<p onclick="alert(1)" style="color:red">hi</p><script>alert(1)</script><iframe src="https://evil.example"></iframe><style>p{}</style><svg onload="alert(1)"></svg>`,
    );
    expect(html).toBe('<p>hi</p>');
  });

  it('keeps only http, https and mailto links, opening outside without an opener', () => {
    const html = sanitizePostHtml(
      '<a href="https://example.com/a">a</a><a href="mailto:x@example.com">m</a><a href="javascript:alert(1)">j</a><a href="data:text/html,x">d</a><a href="JaVaScRiPt&#58;alert(1)">e</a><a href="//evil.example/">p</a>',
    );
    expect(html).toContain('<a href="https://example.com/a" rel="noopener noreferrer nofollow" target="_blank">a</a>');
    expect(html).toContain('href="mailto:x@example.com"');
    expect(html).not.toMatch(/javascript|data:|evil/i);
    expect(html.match(/<a /g)).toHaveLength(6);
    expect(html.match(/href=/g)).toHaveLength(2);
  });

  it("keeps images only from the archive's own file paths", () => {
    const kept = [`/data${FILE}`, FILE, `/thumbnail/data${FILE}`];
    for (const src of kept) expect(sanitizePostHtml(`<img src="${src}" alt="x">`), src).toContain(`src="${src}"`);
    const dropped = [
      'https://c10.patreonusercontent.com/a.png',
      'http://tracker.example/pixel.gif',
      '//evil.example/a.png',
      '/api/v1/account',
      `/data/../${FILE}`,
      'data:image/png;base64,AAAA',
      'javascript:alert(1)',
      '',
    ];
    for (const src of dropped) expect(sanitizePostHtml(`<p>t<img src="${src}" alt="x"></p>`), src).toBe('<p>t</p>');
    expect(sanitizePostHtml('<p><img alt="no source"></p>')).toBe('<p></p>');
  });

  it('accepts archive files on the configured image host only', () => {
    expect(isArchiveImage(`https://img.example.org/data${FILE}`, 'https://img.example.org')).toBe(true);
    expect(isArchiveImage(`https://img.example.org/data${FILE}`, '')).toBe(false);
    expect(isArchiveImage(`https://img.example.org.evil.example/data${FILE}`, 'https://img.example.org')).toBe(false);
    expect(isArchiveImage('https://img.example.org/other.png', 'https://img.example.org')).toBe(false);
    expect(isArchiveImage(`http://img.example.org/data${FILE}`, 'https://img.example.org')).toBe(false);
  });

  it('answers empty for empty content', () => {
    expect(sanitizePostHtml(null)).toBe('');
    expect(sanitizePostHtml('')).toBe('');
  });
});
