/**
 * The importer form's services, inputs and session-key rules (docs/product.md#importer-session-keys),
 * shared by the form island and POST /api/v1/importer/submit so both give the same message.
 * Each paysite's inputs and rules are in its descriptor (shared/paysites/<id>.ts); this module makes
 * them zod schemas. Browser-safe: zod and web APIs only, no node imports.
 *
 * Input names follow docs/product.md#importer-api: session_key, auth_id, x-bc, user_agent, channel_ids; checkboxes
 * auto_import, save_session_key, save_dms arrive as '1' or '0'.
 */
import { z } from 'zod';
import { KEY_MAX_LENGTH } from './constants.ts';
import {
  PAYSITE_DESCRIPTORS,
  PAYSITES,
  isPaysite,
  paysite,
  type ImporterFieldName,
  type KeyField,
  type Paysite,
} from './paysites/index.ts';
import { KeyRuleFailure } from './paysites/key-rules.ts';
import { booleanish, firstIssueMessage, scalarText } from './validation/rules.ts';

export interface ImporterService {
  service: Paysite;
  label: string;
  fields: readonly KeyField[];
  /** Offers the include-DMs checkbox (signed-in users only). */
  dms: boolean;
}

/** Paysites whose importer can also fetch the user's DMs. */
export const DM_SERVICES: readonly Paysite[] = PAYSITE_DESCRIPTORS.filter((d) => d.dms).map((d) => d.id);

/** The twelve services in the order of the Paysite select (the first is the default). */
export const IMPORTER_SERVICES: readonly ImporterService[] = PAYSITE_DESCRIPTORS.map((d) => ({
  service: d.id,
  label: d.label,
  fields: d.keyFields,
  dms: d.dms,
}));

export function importerService(service: Paysite): ImporterService {
  return IMPORTER_SERVICES.find((s) => s.service === service)!;
}

// ---------------------------------------------------------------------------------------------
// Rules

/** A key field's rule over the trimmed value, as a zod schema whose issue carries the rule's message. */
function fieldSchema(keyField: KeyField) {
  return z
    .unknown()
    .optional()
    .transform((raw, ctx): string => {
      try {
        const value = scalarText(raw)?.trim() ?? '';
        if (value === '') throw new KeyRuleFailure(keyField.requiredMessage);
        return keyField.check(value);
      } catch (error) {
        if (!(error instanceof KeyRuleFailure)) throw error;
        ctx.addIssue({ code: 'custom', message: error.message, input: raw });
        return z.NEVER;
      }
    })
    .meta({ type: 'string', minLength: 1, maxLength: keyField.maxLength });
}

const checkbox = z
  .unknown()
  .optional()
  .transform((raw) => booleanish(raw))
  .meta({ type: 'string', enum: ['1', '0'], default: '0' });

const common = {
  service: z
    .unknown()
    .optional()
    .transform((raw) => scalarText(raw)?.trim() ?? ''),
  auto_import: checkbox,
  save_session_key: checkbox,
  save_dms: checkbox,
};

function serviceSchema(service: Paysite) {
  const { keyFields, dms } = paysite(service);
  const fields = Object.fromEntries(keyFields.map((f) => [f.name, fieldSchema(f)])) as Record<string, ReturnType<typeof fieldSchema>>;
  return z.object({ ...common, ...fields }).transform((value) => ({ ...value, service, save_dms: dms && value.save_dms }));
}

/** One schema per service, each with every rule of docs/product.md#importer-session-keys for that service. */
export const IMPORTER_SCHEMAS = Object.fromEntries(PAYSITES.map((s) => [s, serviceSchema(s)])) as {
  [S in Paysite]: ReturnType<typeof serviceSchema>;
};

/** A valid submission: the key fields of its paysite (./paysites/<id>.ts), the checkboxes as booleans. */
export type ImportSubmission = {
  service: Paysite;
  session_key: string;
  auto_import: boolean;
  save_session_key: boolean;
  /** Only ever true for DM_SERVICES. */
  save_dms: boolean;
} & { [Name in Exclude<ImporterFieldName, 'session_key'>]?: string };

/**
 * The whole submission: the paysite first ('"X" is not a valid paysite.'), then that service's schema.
 * This is the route's body schema; its failures carry the first failing rule's message.
 */
export const importSubmissionSchema = z
  .unknown()
  .transform((raw, ctx): ImportSubmission => {
    const body = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const service = scalarText(body.service)?.trim() ?? '';
    if (!isPaysite(service)) {
      ctx.addIssue({ code: 'custom', message: `"${service}" is not a valid paysite.`, input: body.service, path: ['service'] });
      return z.NEVER;
    }
    const result = IMPORTER_SCHEMAS[service].safeParse(body);
    if (!result.success) {
      for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
      return z.NEVER;
    }
    return result.data as ImportSubmission;
  })
  .meta({
    type: 'object',
    required: ['service', 'session_key'],
    properties: {
      service: { type: 'string', enum: [...PAYSITES] },
      session_key: { type: 'string', maxLength: KEY_MAX_LENGTH },
      channel_ids: { type: 'string' },
      auth_id: { type: 'string' },
      'x-bc': { type: 'string' },
      user_agent: { type: 'string' },
      auto_import: { type: 'string', enum: ['1', '0'] },
      save_session_key: { type: 'string', enum: ['1', '0'] },
      save_dms: { type: 'string', enum: ['1', '0'] },
    },
  });

/** The first failing rule's message for a submission, or null when it is valid (the form's check). */
export function importSubmissionError(input: Record<string, unknown>): string | null {
  const result = importSubmissionSchema.safeParse(input);
  return result.success ? null : firstIssueMessage(result.error);
}
