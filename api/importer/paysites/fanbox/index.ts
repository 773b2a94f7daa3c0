/** Fanbox's importer and where it connects. */
import type { PaysiteServer } from '@api/importer/context.ts';
import { fanboxEndpoints } from './endpoints.ts';
import { fanboxImporter } from './importer.ts';

export const fanbox: PaysiteServer = { id: 'fanbox', endpoints: fanboxEndpoints, importer: fanboxImporter };
