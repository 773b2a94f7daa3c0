/**
 * Path templates such as '/{service}/user/{id}/post/{post}': one written shape gives both a builder
 * (the parameters filled in, each percent-encoded) and a matcher (decoded path segments read back as
 * named parameters). The page URLs (shared/urls.ts) and the API paths (shared/api-paths.ts) are written
 * with them, so a shape is never spelled twice. A parameter is always a whole segment.
 */

/** The parameter names of a template, in order: '/{service}/user/{id}' gives ['service', 'id']. */
export type TemplateParams<T extends string> = T extends `${string}{${infer Name}}${infer Rest}` ? [Name, ...TemplateParams<Rest>] : [];

type Values<Names extends unknown[]> = { [K in keyof Names]: string | number };

/** The arguments of a template's builder: one per parameter, in the template's order. */
export type TemplateArgs<T extends string> = Values<TemplateParams<T>>;

export interface PathTemplate<T extends string = string> {
  readonly template: T;
  /** The path with the parameters filled in, in order, each percent-encoded. */
  url(...args: TemplateArgs<T>): string;
  /** The parameters of a path of this shape, given its decoded segments ('/a/b' is ['a', 'b']); else undefined. */
  match(segments: readonly string[]): Record<TemplateParams<T>[number], string> | undefined;
}

export function pathTemplate<const T extends string>(template: T): PathTemplate<T> {
  if (!template.startsWith('/')) throw new Error(`A path template starts with '/': ${template}`);
  const parts = template === '/' ? [] : template.slice(1).split('/');
  /** Each segment's parameter name, or undefined for a literal segment. */
  const names = parts.map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (!name && /[{}]/.test(part)) throw new Error(`A template parameter is a whole segment: ${template}`);
    return name;
  });
  const paramCount = names.filter(Boolean).length;
  return {
    template,
    url(...args) {
      if (args.length !== paramCount) throw new Error(`${template} takes ${paramCount} parameters, got ${args.length}`);
      let path = '';
      let next = 0;
      for (let index = 0; index < parts.length; index += 1) {
        path += `/${names[index] === undefined ? parts[index] : encodeURIComponent(String(args[next++]))}`;
      }
      return path || '/';
    },
    match(segments) {
      if (segments.length !== parts.length) return undefined;
      const params: Record<string, string> = {};
      for (let index = 0; index < parts.length; index += 1) {
        const name = names[index];
        if (name === undefined) {
          if (segments[index] !== parts[index]) return undefined;
        } else params[name] = segments[index];
      }
      return params as Record<TemplateParams<T>[number], string>;
    },
  };
}
