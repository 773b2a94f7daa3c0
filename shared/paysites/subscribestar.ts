import { definePaysite } from './types.ts';
import { maxLength, sessionKeyField } from './key-rules.ts';

/** Creator ids are SubscribeStar user names. */
export const subscribestar = definePaysite({
  id: 'subscribestar',
  label: 'SubscribeStar',
  profileUrl: (id) => `https://subscribestar.adult/${id}`,
  tabs: [],
  attachmentThumbnail: false,
  keyFields: [sessionKeyField((v) => maxLength(v))],
  dms: false,
});
