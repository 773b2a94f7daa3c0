/**
 * /account/review_dms (rendered on demand, never stored): the DMs the signed-in account imported that
 * wait for its review, pending (the default) or ignored, read with the same rule as the API.
 */
import type { SiteDeps } from './deps.ts';
import { listDmsForReview, type DmWithArtist } from '@api/data/dms.ts';
import { dmReviewStatus, type DmReviewStatus } from '@shared/validation/dms.ts';
import { firstIssueMessage } from '@shared/validation/rules.ts';
import { ACCOUNT_PAGES } from '@shared/urls.ts';
import { requireAccess } from './account.ts';
import { badRequest, ok, type PageOutcome } from './outcome.ts';

export interface ReviewDmsPage {
  status: DmReviewStatus;
  dms: DmWithArtist[];
  /** The other view: its label and URL. */
  toggle: { label: string; href: string };
}

export function reviewDmsUrl(status: DmReviewStatus): string {
  return status === 'ignored' ? `${ACCOUNT_PAGES.reviewDms}?status=ignored` : ACCOUNT_PAGES.reviewDms;
}

export async function loadReviewDms(deps: SiteDeps, request: Request, search: URLSearchParams): Promise<PageOutcome<ReviewDmsPage>> {
  const access = await requireAccess(deps, request, 'account');
  if (access.kind !== 'ok') return access;
  const parsed = dmReviewStatus.safeParse(search.get('status') ?? undefined);
  if (!parsed.success) return badRequest(firstIssueMessage(parsed.error));
  const status = parsed.data;
  return ok({
    status,
    dms: await listDmsForReview(deps.db, access.data.account.id, status),
    toggle:
      status === 'pending'
        ? { label: 'Ignored DMs', href: reviewDmsUrl('ignored') }
        : { label: 'Pending DMs', href: reviewDmsUrl('pending') },
  });
}
