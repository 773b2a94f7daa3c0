/** Reading cookies, for the server (a request's Cookie header) and the browser (document.cookie, same form). */
import { decodeComponent } from './parse.ts';

/** The value of one cookie, percent-decoded when it can be (else as sent), or undefined when absent. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return decodeComponent(value) ?? value;
  }
  return undefined;
}
