/** Text made safe for HTML. */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Plain text made safe inside HTML content and inside an attribute value quoted with either quote
 * ('"' and "'" are both escaped: an apostrophe left as it is would end a single-quoted attribute).
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}
