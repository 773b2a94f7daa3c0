/** Patreon's importer and where it connects. */
import type { PaysiteServer } from '@api/importer/context.ts';
import { patreonEndpoints } from './endpoints.ts';
import { patreonImporter } from './importer.ts';

export const patreon: PaysiteServer = { id: 'patreon', endpoints: patreonEndpoints, importer: patreonImporter };
