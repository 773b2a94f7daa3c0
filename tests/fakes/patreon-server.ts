/**
 * The fake Patreon on its own, where playwright.config.ts, bench/ and docs/importing.md start it:
 *   npx tsx tests/fakes/patreon-server.ts --port N [--posts K] [--page-size P]
 * The same as `npx tsx tests/fakes/serve.ts patreon ...` (key from FAKE_PATREON_KEY, default
 * FAKE_PATREON_KEY of ./patreon.ts).
 */
import { serve } from './serve.ts';

await serve(['patreon', ...process.argv.slice(2)]);
