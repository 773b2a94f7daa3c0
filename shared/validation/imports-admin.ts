/** The administrators' imports list: its filters (state, service) and offset; empty means all. */
import { z } from 'zod';
import { IMPORT_STATES, type ImportState } from '../import-state.ts';
import { PAYSITES, isPaysite, type Paysite } from '../paysites/index.ts';
import { offset } from './params.ts';
import { rule, trimmed } from './rules.ts';

export const importStateFilter = rule(
  (raw, fail): ImportState | undefined => {
    const value = trimmed(raw);
    if (value === undefined) return undefined;
    if (!(IMPORT_STATES as readonly string[]).includes(value)) fail(`"${value}" is not an import state.`);
    return value as ImportState;
  },
  { type: 'string', enum: [...IMPORT_STATES] },
);

export const importServiceFilter = rule(
  (raw, fail): Paysite | undefined => {
    const value = trimmed(raw);
    if (value === undefined) return undefined;
    if (!isPaysite(value)) fail(`"${value}" is not a valid paysite.`);
    return value as Paysite;
  },
  { type: 'string', enum: [...PAYSITES] },
);

export const importsFilterSchema = z.object({ o: offset, state: importStateFilter, service: importServiceFilter });
