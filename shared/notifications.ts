/** What a notification says (docs/product.md#notifications). Browser-safe. */
export const NOTIFICATION_TYPES = { roleChange: 1 } as const;

export function notificationMessage(type: number, extraInfo: Record<string, unknown> | null): string {
  if (type === NOTIFICATION_TYPES.roleChange) {
    const from = typeof extraInfo?.old_role === 'string' ? extraInfo.old_role : 'unknown';
    const to = typeof extraInfo?.new_role === 'string' ? extraInfo.new_role : 'unknown';
    return `Your role was changed from ${from} to ${to}.`;
  }
  // Other types are not described by the spec: say that something happened, not what.
  return `You have a new notification (type ${type}).`;
}
