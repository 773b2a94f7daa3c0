/** Fantia's importer and where it connects. */
import type { PaysiteServer } from '@api/importer/context.ts';
import { fantiaEndpoints } from './endpoints.ts';
import { fantiaImporter } from './importer.ts';

export const fantia: PaysiteServer = { id: 'fantia', endpoints: fantiaEndpoints, importer: fantiaImporter };
