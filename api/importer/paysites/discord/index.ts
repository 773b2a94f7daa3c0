/** Discord's importer and where it connects. */
import type { PaysiteServer } from '@api/importer/context.ts';
import { discordEndpoints } from './endpoints.ts';
import { discordImporter } from './importer.ts';

export const discord: PaysiteServer = { id: 'discord', endpoints: discordEndpoints, importer: discordImporter };
