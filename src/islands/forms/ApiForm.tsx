/**
 * The one form component (docs/product.md#form-states: forms show Loading..., Submitting... or Ready for submit).
 *
 * Wraps a form whose submit calls `onSubmit(formData, form)`. While it runs the status line says
 * 'Submitting...' and the submit button is disabled. `onSubmit` may return a list of messages to show
 * (client-side checks), or throw: the error list then shows the server's message for an ApiError
 * (describeError), or the error's message. While the page's initial data loads (`loading`), the status
 * line says 'Loading...' and submitting is disabled.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { describeError } from '@site/client/api-client.ts';
import { useHydrated } from '../shell/useHydrated.ts';

export const FORM_STATUS = {
  loading: 'Loading...',
  submitting: 'Submitting...',
  ready: 'Ready for submit',
} as const;

export interface ApiFormProps {
  // biome-ignore lint/suspicious/noConfusingVoidType: a submit handler that shows no errors is any function returning nothing, sync or async
  onSubmit: (data: FormData, form: HTMLFormElement) => Promise<void | readonly string[]> | void | readonly string[];
  children?: ReactNode;
  /** Initial data is loading: status 'Loading...', submit disabled. */
  loading?: boolean;
  submitLabel?: ReactNode;
  /** Disables the submit button (e.g. until a choice is made). */
  submitDisabled?: boolean;
  /** Messages from outside (e.g. a failed initial load), shown before the form's own. */
  errors?: readonly string[];
  /** Fallback for visitors without JavaScript. */
  action?: string;
  method?: 'get' | 'post';
  className?: string;
  id?: string;
  'aria-label'?: string;
}

export default function ApiForm({
  onSubmit,
  children,
  loading = false,
  submitLabel = 'Submit',
  submitDisabled = false,
  errors: outerErrors = [],
  action,
  method = 'post',
  className,
  id,
  'aria-label': ariaLabel,
}: ApiFormProps) {
  // Before hydration a click would post the form to the page itself; a form without its own action
  // (no plain-HTML path) waits, showing 'Loading...', until the island can send it.
  const hydrated = useHydrated();
  const waiting = !hydrated && action === undefined;
  const [submitting, setSubmitting] = useState(false);
  const [errors, setErrors] = useState<readonly string[]>([]);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting || loading || waiting) return;
    const form = event.currentTarget;
    setSubmitting(true);
    setErrors([]);
    try {
      const messages = await onSubmit(new FormData(form), form);
      if (mounted.current && messages?.length) setErrors(messages);
    } catch (error) {
      if (mounted.current) setErrors([describeError(error)]);
    } finally {
      if (mounted.current) setSubmitting(false);
    }
  }

  const status = loading || waiting ? FORM_STATUS.loading : submitting ? FORM_STATUS.submitting : FORM_STATUS.ready;
  const shown = [...outerErrors, ...errors];
  const statusId = id ? `${id}-status` : undefined;

  return (
    <form
      className={className ? `api-form ${className}` : 'api-form'}
      id={id}
      action={action}
      method={method}
      onSubmit={handleSubmit}
      aria-label={ariaLabel}
      aria-busy={loading || waiting || submitting}
    >
      {children}
      <div className="api-form-footer">
        <button type="submit" disabled={loading || waiting || submitting || submitDisabled} aria-describedby={statusId}>
          {submitLabel}
        </button>
        <p className="api-form-status" role="status" aria-live="polite" id={statusId}>
          {status}
        </p>
      </div>
      {shown.length > 0 && (
        <ul className="api-form-errors" role="alert">
          {shown.map((message, index) => (
            <li key={index}>{message}</li>
          ))}
        </ul>
      )}
    </form>
  );
}
