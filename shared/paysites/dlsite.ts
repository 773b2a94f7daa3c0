import { definePaysite } from './types.ts';
import { maxLength, sessionKeyField } from './key-rules.ts';

/** Creator ids are DLsite maker ids (RG...). */
export const dlsite = definePaysite({
  id: 'dlsite',
  label: 'DLsite',
  profileUrl: (id) => `https://www.dlsite.com/eng/circle/profile/=/maker_id/${id}.html`,
  tabs: [],
  attachmentThumbnail: false,
  keyFields: [sessionKeyField((v) => maxLength(v))],
  dms: false,
});
