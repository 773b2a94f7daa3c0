/** Readers of mirrored chat data (Discord embeds, community messages): untrusted and loosely shaped. Browser-safe. */

/** The value as an object's fields; {} for anything that is not a plain object (arrays included). */
export function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The value when it is a string, '' otherwise. */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
