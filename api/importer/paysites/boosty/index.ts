/** Boosty's importer and where it connects. */
import type { PaysiteServer } from '@api/importer/context.ts';
import { boostyEndpoints } from './endpoints.ts';
import { boostyImporter } from './importer.ts';

export const boosty: PaysiteServer = { id: 'boosty', endpoints: boostyEndpoints, importer: boostyImporter };
