/** Shares ('Filehaus'): the text fields of an upload (the files come as parts of any field name). */
import { z } from 'zod';
import { artistIdParam, serviceParam } from './params.ts';
import { SHARE_UPLOAD_LIMITS } from '../constants.ts';

/** A trimmed text field of at most `max` characters; `required` gives the message for a blank one. */
function textField(label: string, max: number, required?: string) {
  return z
    .unknown()
    .optional()
    .transform((raw) => (typeof raw === 'string' ? raw.trim() : ''))
    .refine((value) => !required || value !== '', required)
    .refine((value) => [...value].length <= max, `${label} must be at most ${max} characters long.`);
}

/** The fields of POST /v1/shares/upload: the creator (service, user), the share's name and description. */
export const shareUploadFields = z.object({
  service: serviceParam,
  user: artistIdParam,
  name: textField('Name', SHARE_UPLOAD_LIMITS.nameMax, 'Name is required.'),
  description: textField('Description', SHARE_UPLOAD_LIMITS.descriptionMax),
});
