/**
 * The building blocks of the validators in this folder (one module per area), shared by the API, the
 * islands and the tests. Browser-safe (zod 4 only, no node imports). A rule's messages are the exact
 * texts users see (the API's 400 answers, the forms): keep them word for word.
 *
 * Inputs may arrive as query strings (possibly repeated: the first value counts, as on kemono),
 * form fields or JSON values, so scalar rules accept strings and numbers alike.
 */
import { z } from 'zod';

// In browsers zod must not probe for `new Function` (its faster object parsing): the pages'
// Content-Security-Policy forbids eval and reports even a caught probe as a violation. Every browser
// module that uses zod imports this one first (every module of shared/validation does).
if (typeof document !== 'undefined') z.config({ jitless: true });

class RuleFailure extends Error {}
export type Fail = (message: string) => never;
const fail: Fail = (message) => {
  throw new RuleFailure(message);
};

/**
 * A rule written as a plain function: return the parsed value or call fail(message). Runs on
 * missing keys too (so 'X is required.' rules work inside objects).
 */
export function rule<T>(parse: (raw: unknown, fail: Fail) => T, meta?: Record<string, unknown>) {
  const schema = z
    .unknown()
    .optional()
    .transform((raw, ctx): T => {
      try {
        return parse(raw, fail);
      } catch (error) {
        if (!(error instanceof RuleFailure)) throw error;
        ctx.addIssue({ code: 'custom', message: error.message, input: raw });
        return z.NEVER;
      }
    });
  return meta ? schema.meta(meta) : schema;
}

/** The first value of a repeated query parameter, numbers as strings; anything else undefined. */
export function scalarText(raw: unknown): string | undefined {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Trimmed text; empty, missing or non-text values give undefined. */
export function trimmed(raw: unknown): string | undefined {
  const value = scalarText(raw)?.trim();
  return value ? value : undefined;
}

/** A list from a repeated parameter, a single value or a JSON array. */
export function list(raw: unknown): unknown[] {
  if (raw === undefined || raw === null || raw === '') return [];
  return Array.isArray(raw) ? raw : [raw];
}

/** Checkbox-like values: true, 'true', '1', 'on', 'yes' are true; everything else false. */
export function booleanish(raw: unknown): boolean {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1;
  return typeof value === 'string' && ['true', '1', 'on', 'yes'].includes(value.trim().toLowerCase());
}

/** The message of the first failing rule (what the API answers and forms show). */
export function firstIssueMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid input.';
}

/** Parses or throws an Error whose message is the first failing rule's message. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new Error(firstIssueMessage(result.error));
  return result.data;
}

/** A required, trimmed text value. */
export function requiredText(message: string, meta: Record<string, unknown> = {}) {
  return rule(
    (raw, fail) => {
      const value = trimmed(raw);
      if (value === undefined) fail(message);
      return value!;
    },
    { type: 'string', minLength: 1, ...meta },
  );
}

/** An optional choice from a list: missing or empty gives the default, anything else the message. */
export function choice<const T extends readonly string[]>(values: T, fallback: T[number], message: (value: string) => string) {
  return rule(
    (raw, fail): T[number] => {
      const value = trimmed(raw);
      if (value === undefined) return fallback;
      if (!values.includes(value)) fail(message(value));
      return value as T[number];
    },
    { type: 'string', enum: [...values], default: fallback },
  );
}
