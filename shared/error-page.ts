/** The error pages' headings by status (src/components/ErrorView.astro). Browser-safe. */
export function errorHeading(status: number): string {
  switch (status) {
    case 400:
      return 'Bad request';
    case 401:
      return 'Login required';
    case 403:
      return 'Not allowed';
    case 404:
      return 'Not found';
    case 410:
      return 'Removed';
    case 503:
      return 'Not available right now';
    default:
      return status >= 500 ? 'Something went wrong on our side' : 'The request could not be answered';
  }
}

/** The not-found page's message (src/pages/404.astro and src/pages/[...unknown].astro). */
export const NOT_FOUND_MESSAGE = 'The page you are looking for does not exist.';

/** The 410 pages' messages (src/components/Gone.astro): a creator or a single post removed at its owner's request. */
export const GONE_MESSAGES = {
  creator: "This creator's content was removed at the request of its owner.",
  post: 'This post was removed at the request of its owner.',
} as const;
