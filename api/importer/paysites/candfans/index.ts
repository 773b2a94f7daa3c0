/** CandFans' importer and where it connects. */
import type { PaysiteServer } from '@api/importer/context.ts';
import { candfansEndpoints } from './endpoints.ts';
import { candfansImporter } from './importer.ts';

export const candfans: PaysiteServer = { id: 'candfans', endpoints: candfansEndpoints, importer: candfansImporter };
