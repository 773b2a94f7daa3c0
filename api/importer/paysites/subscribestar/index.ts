/** SubscribeStar's importer and where it connects. */
import type { PaysiteServer } from '@api/importer/context.ts';
import { subscribestarEndpoints } from './endpoints.ts';
import { subscribestarImporter } from './importer.ts';

export const subscribestar: PaysiteServer = { id: 'subscribestar', endpoints: subscribestarEndpoints, importer: subscribestarImporter };
