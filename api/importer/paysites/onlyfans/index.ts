/** OnlyFans' importer and where it connects. */
import type { PaysiteServer } from '@api/importer/context.ts';
import { onlyfansEndpoints } from './endpoints.ts';
import { onlyfansImporter } from './importer.ts';

export const onlyfans: PaysiteServer = { id: 'onlyfans', endpoints: onlyfansEndpoints, importer: onlyfansImporter };
