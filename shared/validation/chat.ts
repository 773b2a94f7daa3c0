/** The chat viewer (Discord servers, Patreon community): message offsets and its messages. */
import { offsetSchema } from './params.ts';
import { CHAT_PAGE_SIZE } from '../constants.ts';

/** Discord and community message pages step by 150. */
export const chatOffset = offsetSchema(CHAT_PAGE_SIZE);

/** The chat viewer's messages (docs/product.md#route-guards), shared by its API and pages. */
export const CHAT_MESSAGES = { invalidChannel: 'Invalid channel ID', noChannels: 'No channels found' } as const;
