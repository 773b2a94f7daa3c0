/**
 * Content collections for the static text pages (Astro 5 content layer, glob loader).
 * Astro's schemas use its own zod 3 (`z` from astro:content), not the project's zod 4.
 *
 * - pages: one Markdown file per text page (home, 2257, contact, dmca, gumroad-and-co, matrix,
 *   importer tutorials and FAQ); the id is the file name without extension.
 * - keys: one Markdown file per paysite, named after it (src/content/keys/patreon.md ...), the
 *   "how to get a session key" help shown at /importer/keys/{paysite}.
 */
import { defineCollection, z } from 'astro:content';
import { glob } from 'astro/loaders';
import { PAYSITES } from '@shared/paysites/index.ts';

const pages = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/pages' }),
  schema: z.object({
    /** The page part of the document title ('title | site name'). */
    title: z.string().min(1),
    /** The h1, when it differs from the title. */
    heading: z.string().optional(),
    description: z.string().optional(),
  }),
});

const keys = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/keys' }),
  schema: z.object({
    title: z.string().min(1),
    paysite: z.enum(PAYSITES),
    description: z.string().optional(),
    /** Where the key is found, in a few words (shown in the tutorial's overview list). */
    summary: z.string().min(1),
  }),
});

export const collections = { pages, keys };
