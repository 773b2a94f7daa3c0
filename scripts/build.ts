/** `npm run build`: the site (astro build), the render worker bundle and precompressed assets, when stale. */
import { ensureBuild } from './lib/build.ts';

await ensureBuild((line) => console.log(line));
