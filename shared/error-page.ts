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
    case 503:
      return 'Not available right now';
    default:
      return status >= 500 ? 'Something went wrong on our side' : 'The request could not be answered';
  }
}

/** The not-found page's message (src/pages/404.astro and src/pages/[...unknown].astro). */
export const NOT_FOUND_MESSAGE = 'The page you are looking for does not exist.';
