/** Fansly's importer and where it connects. */
import type { PaysiteServer } from '@api/importer/context.ts';
import { fanslyEndpoints } from './endpoints.ts';
import { fanslyImporter } from './importer.ts';

export const fansly: PaysiteServer = { id: 'fansly', endpoints: fanslyEndpoints, importer: fanslyImporter };
