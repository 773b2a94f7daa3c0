/**
 * Parsing that answers undefined for bad input instead of throwing: URLs, percent-decoding and JSON text.
 * Each catches only the error its parser throws for bad input (TypeError, URIError, SyntaxError), so any
 * other error still surfaces; callers never need a bare `catch {}` for these.
 */

/** The URL of `value` (against `base` when given), or undefined when it is not one. */
export function parseUrl(value: string, base?: string | URL): URL | undefined {
  try {
    return new URL(value, base);
  } catch (error) {
    if (error instanceof TypeError) return undefined;
    throw error;
  }
}

/** `decodeURIComponent(value)`, or undefined for a malformed percent-escape. */
export function decodeComponent(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch (error) {
    if (error instanceof URIError) return undefined;
    throw error;
  }
}

/** `decodeURI(value)`, or undefined for a malformed percent-escape. */
export function decodeWholeUri(value: string): string | undefined {
  try {
    return decodeURI(value);
  } catch (error) {
    if (error instanceof URIError) return undefined;
    throw error;
  }
}

/** `{ value }` of a JSON text, or undefined when it is not JSON (a JSON `null` is `{ value: null }`). */
export function parseJsonText(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}
