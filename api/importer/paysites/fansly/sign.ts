/**
 * What Fansly's web app adds to every API request, as the open-source clients describe it
 * (Jakan-Kink/fansly-scraper `api/fansly.py`, `docs/reference/request-signing.md`; prof79/
 * fansly-downloader-ng `api/fansly.py`): the token (bare, in `authorization`), the session id the token
 * carries, and the `fansly-client-check` digest, cyrb53 of `{checkKey}_{path}_{deviceId}` in hex. The
 * check key is a string in the site's main.*.js (`this.checkKey_ = ...`), nowadays an expression; it is
 * read with a small evaluator for string literals, arrays, `.reverse()`, `.join()` and `+`, never run.
 * Pure functions: no fetching here.
 */
import { base64Text, parseJsonObject } from '@shared/paysites/key-rules.ts';

/** The check key JK's client gives as current (2025-10-25), used when main.*.js cannot be read. */
export const KNOWN_CHECK_KEY = 'oybZy8-fySzis-bubayf';

/** The token of a key: the 71-character token itself, or base64 of `session_active_session`'s JSON. */
export function tokenOf(key: string): string {
  const trimmed = key.trim();
  if (/^[A-Za-z0-9]{71}$/.test(trimmed)) return trimmed;
  // Not base64 JSON with a token: take the key as the token.
  const token = parseJsonObject(base64Text(trimmed))?.token;
  if (typeof token === 'string' && token.trim()) return token.trim();
  return trimmed;
}

/** The session id a token carries: the first ':' field of its base64 text (`<sessionId>:1:2:<hash>`). */
export function sessionIdOf(token: string): string | undefined {
  const id = base64Text(token)?.split(':')[0];
  return id && /^\d{6,25}$/.test(id) ? id : undefined;
}

/** cyrb53 (seed 0), the public 53-bit string hash, with JavaScript's 32-bit Math.imul. */
export function cyrb53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The `fansly-client-check` header of a request path (no query, no host) from a device. */
export function clientCheck(checkKey: string, pathname: string, deviceId: string): string {
  return cyrb53(`${checkKey}_${pathname}_${deviceId}`).toString(16);
}

/** The main bundle a home page loads (`<script src="main.<hash>.js">`). */
export function mainScriptOf(html: string): string | undefined {
  return /src="((?:[^"]*\/)?main\.[^"/]*?\.js)"/.exec(html)?.[1];
}

type Value = string | Value[];

class ExpressionError extends Error {}

/** Reads a JavaScript expression made of string literals, array literals, .reverse(), .join(sep) and +. */
class Reader {
  private at = 0;
  constructor(private readonly text: string) {}

  private space() {
    while (/\s/.test(this.text[this.at] ?? '')) this.at++;
  }

  private eat(token: string): boolean {
    this.space();
    if (!this.text.startsWith(token, this.at)) return false;
    this.at += token.length;
    return true;
  }

  private string(quote: string): string {
    let out = '';
    for (this.at++; this.at < this.text.length; this.at++) {
      const ch = this.text[this.at];
      if (ch === quote) {
        this.at++;
        return out;
      }
      if (ch !== '\\') {
        out += ch;
        continue;
      }
      const next = this.text[++this.at];
      const hex = (length: number) => {
        const code = Number.parseInt(this.text.slice(this.at + 1, this.at + 1 + length), 16);
        if (!Number.isFinite(code)) throw new ExpressionError('bad escape');
        this.at += length;
        return String.fromCharCode(code);
      };
      out += next === 'n' ? '\n' : next === 't' ? '\t' : next === 'x' ? hex(2) : next === 'u' ? hex(4) : next;
    }
    throw new ExpressionError('unterminated string');
  }

  private primary(): Value {
    this.space();
    const ch = this.text[this.at];
    if (ch === '"' || ch === "'" || ch === '`') return this.string(ch);
    if (this.eat('(')) {
      const value = this.expression();
      if (!this.eat(')')) throw new ExpressionError('missing )');
      return value;
    }
    if (this.eat('[')) {
      const items: Value[] = [];
      if (this.eat(']')) return items;
      do items.push(this.expression());
      while (this.eat(','));
      if (!this.eat(']')) throw new ExpressionError('missing ]');
      return items;
    }
    throw new ExpressionError('not a literal');
  }

  private postfix(): Value {
    let value = this.primary();
    while (this.eat('.')) {
      const name = /^[A-Za-z_$][\w$]*/.exec(this.text.slice(this.at))?.[0];
      if (!name) throw new ExpressionError('bad member');
      this.at += name.length;
      if (!this.eat('(')) throw new ExpressionError('not a call');
      const args: Value[] = [];
      if (!this.eat(')')) {
        do args.push(this.expression());
        while (this.eat(','));
        if (!this.eat(')')) throw new ExpressionError('missing )');
      }
      if (name === 'reverse' && Array.isArray(value)) value = [...value].reverse();
      else if (name === 'join' && Array.isArray(value)) value = value.map(flat).join(args.length ? flat(args[0]) : ',');
      else if (name === 'split' && typeof value === 'string') value = value.split(flat(args[0] ?? ''));
      else if (name === 'concat') value = Array.isArray(value) ? [...value, ...args] : value + args.map(flat).join('');
      else if (name === 'toString') value = flat(value);
      else throw new ExpressionError(`unknown call ${name}`);
    }
    return value;
  }

  expression(): Value {
    let value = this.postfix();
    while (this.eat('+')) value = flat(value) + flat(this.postfix());
    return value;
  }
}

const flat = (value: Value): string => (Array.isArray(value) ? value.map(flat).join(',') : value);

/** The check key of a main.*.js bundle (`this.checkKey_ = <expression>`), or undefined when it cannot be read. */
export function checkKeyOf(script: string): string | undefined {
  for (const match of script.matchAll(/this\.checkKey_\s*=(?!=)/g)) {
    try {
      const value = new Reader(script.slice(match.index + match[0].length, match.index + match[0].length + 2000)).expression();
      const key = flat(value);
      if (/^[\w-]{4,100}$/.test(key)) return key;
    } catch (error) {
      // The reader refuses an expression it cannot follow: try the next assignment, if any.
      if (!(error instanceof ExpressionError)) throw error;
    }
  }
  return undefined;
}
