/** Gumroad's importer and where it connects. */
import type { PaysiteServer } from '@api/importer/context.ts';
import { gumroadEndpoints } from './endpoints.ts';
import { gumroadImporter } from './importer.ts';

export const gumroad: PaysiteServer = { id: 'gumroad', endpoints: gumroadEndpoints, importer: gumroadImporter };
