/**
 * The API documentation page's data: the OpenAPI document the route declarations generate
 * (api/http/openapi.ts, the same one /api/schema serves), grouped into its areas, and the helpers that
 * print a schema. Needs neither the database nor the settings.
 */
import { openApiDocument, schemaConstraints, schemaText, type OpenApiDocument, type OpenApiOperation } from '@api/http/openapi.ts';

export { schemaConstraints, schemaText };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export interface ApiDocEntry {
  id: string;
  method: string;
  path: string;
  operation: OpenApiOperation;
}

export interface ApiDocSection {
  name: string;
  description: string | undefined;
  entries: ApiDocEntry[];
}

export function loadApiDocs(): { document: OpenApiDocument; sections: ApiDocSection[] } {
  const document = openApiDocument();
  const entries: ApiDocEntry[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      entries.push({ id: operation.operationId ?? `${method}-${path}`, method, path, operation });
    }
  }
  const tagNames = document.tags?.map((t) => t.name) ?? [];
  const sections: ApiDocSection[] = tagNames
    .map((name) => ({
      name,
      description: document.tags?.find((t) => t.name === name)?.description,
      entries: entries.filter((e) => e.operation.tags?.[0] === name),
    }))
    .filter((section) => section.entries.length > 0);
  const untagged = entries.filter((e) => !e.operation.tags?.length || !tagNames.includes(e.operation.tags[0]!));
  if (untagged.length) sections.push({ name: 'other', description: undefined, entries: untagged });
  return { document, sections };
}
