/** The origin that serves files (`server` in post, attachment and fancard answers; clients fetch {server}/data{path}). */
import type { Request } from 'express';
import type { Config } from '../../src/lib/config.ts';

export function fileServer(config: Config, req: Request): string {
  if (config.imageHost) return config.imageHost.replace(/\/+$/, '');
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}
