/** Afdian's importer and where it connects. */
import type { PaysiteServer } from '@api/importer/context.ts';
import { afdianEndpoints } from './endpoints.ts';
import { afdianImporter } from './importer.ts';

export const afdian: PaysiteServer = { id: 'afdian', endpoints: afdianEndpoints, importer: afdianImporter };
