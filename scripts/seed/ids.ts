/** Service-shaped ids for demo creators and posts. Post ids embed a per-service counter, so they are unique. */
import type { Paysite } from '@shared/paysites/index.ts';
import type { Rng } from './random.ts';

export const DISCORD_EPOCH_MS = 1_420_070_400_000;

/** A Discord-style snowflake for a time (ms) and a sequence number. */
export function snowflake(ms: number, sequence: number): string {
  return ((BigInt(ms - DISCORD_EPOCH_MS) << 22n) | BigInt(sequence & 0x3fffff)).toString();
}

/** A creator id in the style of the service; `index` keeps ids distinct. */
export function creatorId(rng: Rng, service: Paysite, index: number, handle: string): string {
  switch (service) {
    case 'patreon':
      return String(10_000_000 + index * 7919 + rng.int(0, 7000));
    case 'fanbox':
      return String(2_000_000 + index * 104_729 + rng.int(0, 100_000));
    case 'fantia':
      return String(10_000 + index * 37 + rng.int(0, 30));
    case 'afdian':
      return rng.hex(24) + index.toString(16).padStart(8, '0');
    case 'boosty':
    case 'subscribestar':
    case 'onlyfans':
      return handle;
    case 'gumroad':
      return String(1_000_000_000_000 + index * 15_485_863 + rng.int(0, 15_000_000));
    case 'dlsite':
      return `RG${String(10_000 + index * 13 + rng.int(0, 12)).padStart(5, '0')}`;
    case 'fansly':
      return String(300_000_000_000_000_000n + BigInt(index) * 1_000_003n + BigInt(rng.int(0, 1_000_000)));
    case 'candfans':
      return String(1000 + index * 17 + rng.int(0, 16));
    case 'discord':
      return snowflake(Date.UTC(2021, 0, 1) + index * 86_400_000 + rng.int(0, 86_000_000), index);
  }
}

/** Per-service post id generator: ids grow over time like the services' own. */
export class PostIdGenerator {
  private readonly counters = new Map<string, number>();
  constructor(private readonly rng: Rng) {}

  next(service: Paysite): string {
    const counter = (this.counters.get(service) ?? 0) + 1;
    this.counters.set(service, counter);
    const rng = this.rng;
    switch (service) {
      case 'patreon':
        return String(90_000_000 + counter * 11 + rng.int(0, 10));
      case 'fanbox':
        return String(7_000_000 + counter * 3 + rng.int(0, 2));
      case 'fantia':
        return String(2_000_000 + counter * 5 + rng.int(0, 4));
      case 'afdian':
        return rng.hex(24) + counter.toString(16).padStart(8, '0');
      case 'boosty':
        return `${rng.hex(8)}-${rng.hex(4)}-4${rng.hex(3)}-a${rng.hex(3)}-${counter.toString(16).padStart(12, '0')}`;
      case 'gumroad':
        return `${rng.hex(2)}${counter.toString(36)}`;
      case 'subscribestar':
        return String(1_000_000 + counter * 7 + rng.int(0, 6));
      case 'dlsite':
        return `RJ${String(1_000_000 + counter * 3 + rng.int(0, 2)).padStart(8, '0')}`;
      case 'fansly':
        return String(600_000_000_000_000_000n + BigInt(counter) * 4_096n + BigInt(rng.int(0, 4000)));
      case 'onlyfans':
        return String(1_000_000_000 + counter * 13 + rng.int(0, 12));
      case 'candfans':
        return String(100_000 + counter * 3 + rng.int(0, 2));
      case 'discord':
        return String(counter);
    }
  }
}
