/** DLsite's importer and where it connects. */
import type { PaysiteServer } from '@api/importer/context.ts';
import { dlsiteEndpoints } from './endpoints.ts';
import { dlsiteImporter } from './importer.ts';

export const dlsite: PaysiteServer = { id: 'dlsite', endpoints: dlsiteEndpoints, importer: dlsiteImporter };
