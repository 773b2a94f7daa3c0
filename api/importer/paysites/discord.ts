/** The discord importer: being built (issue 6); until then it says it is not available. */
import type { PaysiteImporter } from './index.ts';

export const discordImporter: PaysiteImporter = {
  async run(ctx) {
    const { notAvailableLine } = await import('./index.ts');
    ctx.step(() => undefined, { log: [notAvailableLine(ctx.service)] });
  },
};
