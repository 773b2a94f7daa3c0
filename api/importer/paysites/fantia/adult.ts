/**
 * Fantia's account-level adult setting. With it off, the post API marks every content of an adult post
 * 'adult_only' and gives none of it. Like kemono's importer, Trove turns it on for the import and back
 * off afterwards, saying so in the log: the form is form.edit_user on /mypage/account/edit (checkbox
 * input#user_rating, checked = adult shown), sent to POST /mypage/users/update_rating with its
 * authenticity_token and user[rating]=adult|general.
 */
import type { ImportContext } from '@api/importer/context.ts';
import type { PaysiteClient } from '@api/importer/fetch.ts';
import { fantiaClient } from './api.ts';
import { adultForm } from './html.ts';

export type AdultState = 'on' | 'off' | 'unknown';

async function readForm(client: PaysiteClient) {
  const answer = await client.requestText('/mypage/account/edit', { redirect: 'manual', allowStatuses: [404] });
  return answer.status === 200 ? adultForm(answer.body) : undefined;
}

/** Whether the account shows adult posts ('unknown' when the account page is not what it used to be). */
export async function adultSetting(client: PaysiteClient): Promise<AdultState> {
  const form = await readForm(client);
  return form ? (form.adult ? 'on' : 'off') : 'unknown';
}

/** Sets the adult setting; true when Fantia took the change (it answers with a redirect back to the form). */
export async function setAdult(client: PaysiteClient, on: boolean): Promise<boolean> {
  const form = await readForm(client);
  if (!form) return false;
  if (form.adult === on) return true;
  const site = new URL(client.url('/'));
  const body = new URLSearchParams({
    utf8: '✓',
    authenticity_token: form.token,
    'user[rating]': on ? 'adult' : 'general',
    commit: '変更を保存',
  }).toString();
  const answer = await client.requestText('/mypage/users/update_rating', {
    method: 'POST',
    body,
    redirect: 'manual',
    allowStatuses: [422],
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: site.origin,
      referer: `${site.origin}/mypage/account/edit`,
    },
  });
  return answer.status >= 300 && answer.status < 400;
}

/**
 * Puts the setting back off at the end of a run, even one that ends in an error or a stop (the import's
 * own signal may be aborted by then, so this asks with a short deadline of its own). Never throws.
 */
export async function restoreAdult(ctx: ImportContext): Promise<void> {
  try {
    const done = await setAdult(fantiaClient(ctx, AbortSignal.timeout(30_000)), false);
    await ctx.log(
      done ? "Turned the Fantia account's adult setting back off." : "Could not turn the Fantia account's adult setting back off.",
    );
  } catch (error) {
    // Whatever went wrong (the site, the network), the import must still end; it is said once.
    try {
      await ctx.log(`Could not turn the Fantia account's adult setting back off (${error instanceof Error ? error.name : 'error'}).`);
    } catch (logError) {
      // The import ended (lease lost): nothing more to say.
      if (!(logError instanceof Error)) throw logError;
    }
  }
}
