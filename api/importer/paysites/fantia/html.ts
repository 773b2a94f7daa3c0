/**
 * What the importer reads from fantia.jp's HTML pages: links by class (fanclub avatars on the plans
 * page, post cards on a fanclub's post list), the CSRF token of the session, and the account form's
 * adult setting. Tags are read by their attributes, in any order; pure functions.
 */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" };

function decode(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39|apos);/g, (_, name: string) => ENTITIES[name]!);
}

/** The attributes of every `<name ...>` start tag in the HTML, in order. */
export function tags(html: string, name: string): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  const tag = new RegExp(`<${name}\\b([^>]*)>`, 'gi');
  for (const match of html.matchAll(tag)) {
    const attrs: Record<string, string> = {};
    for (const attr of match[1].matchAll(/([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
      attrs[attr[1].toLowerCase()] = decode(attr[2] ?? attr[3] ?? attr[4] ?? '');
    }
    out.push(attrs);
  }
  return out;
}

const hasClass = (attrs: Record<string, string>, cls: string) => (attrs.class ?? '').split(/\s+/).includes(cls);

/** The href of every <a> with this class. */
export function anchorsWithClass(html: string, cls: string): string[] {
  return tags(html, 'a')
    .filter((a) => hasClass(a, cls) && a.href)
    .map((a) => a.href);
}

/** The session's CSRF token (<meta name="csrf-token" content="...">), if the page has one. */
export function csrfTokenOf(html: string): string | undefined {
  return tags(html, 'meta').find((m) => m.name === 'csrf-token')?.content || undefined;
}

/** The account form (form.edit_user on /mypage/account/edit): its token and whether adult posts are shown. */
export function adultForm(html: string): { token: string; adult: boolean } | undefined {
  const start = html.search(/<form\b[^>]*class="[^"]*\bedit_user\b/);
  if (start < 0) return undefined;
  const end = html.indexOf('</form>', start);
  const form = html.slice(start, end < 0 ? undefined : end);
  const inputs = tags(form, 'input');
  const token = inputs.find((i) => i.name === 'authenticity_token')?.value;
  const rating = inputs.find((i) => i.id === 'user_rating');
  if (!token || !rating) return undefined;
  return { token, adult: 'checked' in rating };
}
