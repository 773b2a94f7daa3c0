/** A small seeded PRNG (sfc32) and helpers, so the demo archive is the same for the same seed. */

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max] (inclusive). */
  int(min: number, max: number): number;
  /** true with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** k distinct items (k clamped to the list length), in random order. */
  sample<T>(items: readonly T[], k: number): T[];
  shuffle<T>(items: T[]): T[];
  /** Lowercase hex string of n digits. */
  hex(n: number): string;
  /** Decimal digit string of n digits without a leading zero. */
  digits(n: number): string;
  /** An independent generator derived from this one and a label. */
  fork(label: string): Rng;
}

/** 32-bit hash of a string (FNV-1a), for seeding from text. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function createRng(seed: number | string): Rng {
  const base = typeof seed === 'number' ? seed >>> 0 : hashString(seed);
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = base ^ 0xdeadbeef;
  const raw = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 16; i += 1) raw();
  const rng: Rng = {
    next: raw,
    int: (min, max) => min + Math.floor(raw() * (max - min + 1)),
    chance: (p) => raw() < p,
    pick: (items) => items[Math.floor(raw() * items.length)],
    sample(items, k) {
      const copy = items.slice();
      const n = Math.min(k, copy.length);
      for (let i = 0; i < n; i += 1) {
        const j = i + Math.floor(raw() * (copy.length - i));
        [copy[i], copy[j]] = [copy[j], copy[i]];
      }
      return copy.slice(0, n);
    },
    shuffle(items) {
      for (let i = items.length - 1; i > 0; i -= 1) {
        const j = Math.floor(raw() * (i + 1));
        [items[i], items[j]] = [items[j], items[i]];
      }
      return items;
    },
    hex(n) {
      let out = '';
      while (out.length < n) out += Math.floor(raw() * 16).toString(16);
      return out;
    },
    digits(n) {
      let out = String(1 + Math.floor(raw() * 9));
      while (out.length < n) out += String(Math.floor(raw() * 10));
      return out;
    },
    fork: (label) => createRng((base ^ hashString(label)) >>> 0),
  };
  return rng;
}
