/** Meta: the build's commit id and the API's own OpenAPI document. */
import { z } from 'zod';
import { defineRoutes, route } from '../http/route.ts';

export default defineRoutes(
  'meta',
  [
    route({
      method: 'get',
      version: 1,
      path: '/app_version',
      summary: "The running build's commit id, as a JSON string.",
      response: z.string().meta({ example: '329711f3c0ffee' }),
      handler: ({ deps }) => deps.build.commit,
    }),
    route({
      method: 'get',
      version: null,
      path: '/schema',
      summary: 'This OpenAPI 3 document (JSON).',
      response: z.object({ openapi: z.string(), info: z.object({ title: z.string(), version: z.string() }).loose() }).loose(),
      handler: ({ openApi }) => openApi() as { openapi: string; info: { title: string; version: string } },
    }),
  ],
  'Build information and API documentation.',
);
