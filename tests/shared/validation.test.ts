import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { USERNAME_PATTERN, changePasswordSchema, loginSchema, registrationSchema, username } from '@shared/validation/accounts.ts';
import { accountId, accountRole, accountsFilterSchema } from '@shared/validation/administration.ts';
import { archivePassword, sha256Hash } from '@shared/validation/files.ts';
import {
  artistIdParam,
  fanboxServiceParam,
  fileHashParam,
  offset,
  pageNumber,
  paysite,
  postIdParam,
  profileIdParam,
  serviceParam,
  shareIdParam,
} from '@shared/validation/params.ts';
import { artistsQuerySchema, postsQuerySchema } from '@shared/validation/listings.ts';
import { chatOffset } from '@shared/validation/chat.ts';
import { dmReviewSchema, dmReviewStatus, dmsQuerySchema } from '@shared/validation/dms.ts';
import { favoriteCreatorsQuerySchema, favoritePostsQuerySchema } from '@shared/validation/favorites.ts';
import { keysRevokeSchema } from '@shared/validation/keys.ts';
import { linkReason, linkRequestSchema, linkTarget } from '@shared/validation/links.ts';
import { parseOrThrow } from '@shared/validation/rules.ts';
import { popularPeriod, popularQuerySchema } from '@shared/validation/popular.ts';

/** The first failing rule's message, or undefined when the input passes. */
function message(schema: z.ZodType, input: unknown): string | undefined {
  const result = schema.safeParse(input);
  return result.success ? undefined : result.error.issues[0]?.message;
}
function value(schema: z.ZodType, input: unknown): unknown {
  const result = schema.safeParse(input);
  if (!result.success) throw new Error(result.error.issues[0]?.message);
  return result.data;
}

const HASH = 'ab'.repeat(32);

describe('general rules', () => {
  it('offsets are multiples of 50', () => {
    expect(message(offset, '75')).toBe('Offset 75 is not a multiple of 50.');
    expect(message(offset, 25)).toBe('Offset 25 is not a multiple of 50.');
    expect(value(offset, '100')).toBe(100);
    expect(value(offset, undefined)).toBe(0);
    expect(value(offset, '')).toBe(0);
    expect(value(offset, ['50', '75'])).toBe(50); // repeated: the first counts
    expect(message(offset, 'abc')).toBe('Offset "abc" is not a whole number.');
    expect(message(offset, '1.5')).toBe('Offset "1.5" is not a whole number.');
    expect(message(offset, '-50')).toBe('Offset -50 must not be negative.');
    expect(message(offset, '9'.repeat(30))).toBe(`Offset ${'9'.repeat(30)} is too large.`);
    expect(message(chatOffset, '100')).toBe('Offset 100 is not a multiple of 150.');
    expect(value(chatOffset, '300')).toBe(300);
  });

  it('page numbers are required and positive', () => {
    expect(message(pageNumber, undefined)).toBe('Page number is required.');
    expect(message(pageNumber, '')).toBe('Page number is required.');
    expect(message(pageNumber, '0')).toBe('Page number must be positive.');
    expect(message(pageNumber, '-3')).toBe('Page number must be positive.');
    expect(message(pageNumber, 'x')).toBe('Page number must be a whole number.');
    expect(value(pageNumber, '2')).toBe(2);
  });

  it('account roles', () => {
    expect(message(accountRole, 'owner')).toBe('Invalid account role.');
    expect(message(accountRole, undefined)).toBe('Invalid account role.');
    expect(value(accountRole, ' moderator ')).toBe('moderator');
    expect(value(accountRole, 'administrator')).toBe('administrator');
  });

  it('paysites', () => {
    expect(message(paysite, 'myspace')).toBe('"myspace" is not a valid paysite.');
    expect(value(paysite, 'fanbox')).toBe('fanbox');
  });
});

describe('route guards', () => {
  it('say which parameter is missing', () => {
    expect(message(serviceParam, '')).toBe('Service name is required.');
    expect(message(serviceParam, undefined)).toBe('Service name is required.');
    expect(message(serviceParam, 'myspace')).toBe('"myspace" is not a valid paysite.');
    expect(message(artistIdParam, '')).toBe('Artist ID is required.');
    expect(message(profileIdParam, ' ')).toBe('Profile ID is required.');
    expect(message(postIdParam, undefined)).toBe('Post ID is required.');
    expect(message(shareIdParam, '')).toBe('Share ID is required.');
    expect(message(fileHashParam, '')).toBe('File hash is required.');
    expect(message(fanboxServiceParam, 'patreon')).toBe('Service must be "fanbox".');
    expect(value(fanboxServiceParam, 'fanbox')).toBe('fanbox');
    expect(value(artistIdParam, ' 123 ')).toBe('123');
  });
});

describe('registration and login', () => {
  it('normalises the username: lowercased, foreign characters removed, trimmed', () => {
    expect(value(username, ' Alice_Smith! ')).toBe('alice_smith');
    expect(value(username, 'Bob@Example.com')).toBe('bob@example.com');
  });

  it('username messages', () => {
    expect(message(username, undefined)).toBe('Username is required.');
    expect(message(username, '')).toBe('Username is required.');
    expect(message(username, '!!!')).toBe('Username is required.');
    expect(message(username, 'ab')).toBe('Username must be at least 3 characters and no more than 15 characters long.');
    expect(message(username, 'a'.repeat(16))).toBe('Username must be at least 3 characters and no more than 15 characters long.');
    expect(message(username, '_abc')).toBe(
      `Username doesn't match pattern ${USERNAME_PATTERN.source} (it must start with a letter or a digit).`,
    );
    expect(message(username, '_abc')).toMatch(/^Username doesn't match pattern /);
  });

  it('password messages and confirmation', () => {
    const base = { username: 'alice', password: 'secret', confirm_password: 'secret' };
    expect(message(registrationSchema, { ...base, password: '' })).toBe('Password is required.');
    expect(message(registrationSchema, { ...base, password: undefined })).toBe('Password is required.');
    expect(message(registrationSchema, { ...base, password: 'abcd', confirm_password: 'abcd' })).toBe(
      'Password must have at least 5 characters.',
    );
    expect(message(registrationSchema, { ...base, confirm_password: 'secreT' })).toBe("Passwords don't match.");
    expect(message(registrationSchema, { ...base, username: '' })).toBe('Username is required.');
    expect(value(registrationSchema, { ...base, username: 'Alice' })).toEqual({
      username: 'alice',
      password: 'secret',
      favorites_json: [],
    });
  });

  it('favourites sent with registration', () => {
    const favorites = JSON.stringify([
      { service: 'patreon', id: '1' },
      { service: 'myspace', id: '2' },
    ]);
    const parsed = value(registrationSchema, {
      username: 'alice',
      password: 'secret',
      confirm_password: 'secret',
      favorites_json: favorites,
    }) as { favorites_json: unknown };
    expect(parsed.favorites_json).toEqual([{ service: 'patreon', id: '1' }]);
  });

  it('login requires both fields', () => {
    expect(message(loginSchema, {})).toBe('Username is required.');
    expect(message(loginSchema, { username: 'alice' })).toBe('Password is required.');
    expect(value(loginSchema, { username: 'Alice', password: 'x' })).toEqual({ username: 'alice', password: 'x' });
  });

  it('change password', () => {
    const base = { 'current-password': 'old', 'new-password': 'newpass', 'new-password-confirmation': 'newpass' };
    expect(message(changePasswordSchema, { ...base, 'current-password': '' })).toBe('Password cannot be empty.');
    expect(message(changePasswordSchema, { ...base, 'new-password': '   ' })).toBe('New password cannot be empty.');
    expect(message(changePasswordSchema, { ...base, 'new-password': ' abcd ' })).toBe('New password must have at least 5 characters.');
    expect(message(changePasswordSchema, { ...base, 'new-password-confirmation': 'other' })).toBe(
      'New password and confirmation do not match.',
    );
    expect(value(changePasswordSchema, { ...base, 'new-password': ' newpass ' })).toMatchObject({
      'new-password': 'newpass',
    });
  });
});

describe('account pages', () => {
  it('DM review', () => {
    expect(message(dmReviewSchema, {})).toBe('At least one DM must be provided for approval.');
    expect(message(dmReviewSchema, { approved_hashes: [] })).toBe('At least one DM must be provided for approval.');
    expect(value(dmReviewSchema, { approved_hashes: 'h1' })).toEqual({ approved_hashes: ['h1'], delete_ignored: false });
    expect(value(dmReviewSchema, { approved_hashes: [], delete_ignored: true })).toEqual({
      approved_hashes: [],
      delete_ignored: true,
    });
    expect(message(dmReviewStatus, 'archived')).toBe('Unknown status "archived".');
    expect(value(dmReviewStatus, undefined)).toBe('pending');
    expect(value(dmReviewStatus, 'ignored')).toBe('ignored');
  });

  it('keys revoke', () => {
    expect(message(keysRevokeSchema, {})).toBe('At least one key must be selected for revocation.');
    expect(message(keysRevokeSchema, { revoke: [] })).toBe('At least one key must be selected for revocation.');
    expect(message(keysRevokeSchema, { revoke: ['x'] })).toBe('Invalid key ID "x".');
    expect(value(keysRevokeSchema, { revoke: ['3', 4] })).toEqual({ revoke: [3, 4] });
    expect(value(keysRevokeSchema, { revoke: '7' })).toEqual({ revoke: [7] });
  });

  it('archive password', () => {
    expect(message(archivePassword, '')).toBe('Please enter a password.');
    expect(message(archivePassword, undefined)).toBe('Please enter a password.');
    expect(value(archivePassword, ' p w ')).toBe(' p w ');
  });

  it('administrator', () => {
    expect(message(accountId, '0')).toBe('Account ID must be positive.');
    expect(message(accountId, '-1')).toBe('Account ID must be positive.');
    expect(message(accountId, undefined)).toBe('Account ID must be positive.');
    expect(value(accountId, '12')).toBe(12);
    expect(value(accountsFilterSchema, { name: '  bob ', role: ' ' })).toEqual({ name: 'bob', role: undefined });
    expect(message(accountsFilterSchema, { role: 'owner' })).toBe('Invalid account role.');
  });
});

describe('listings', () => {
  it('artists', () => {
    expect(message(artistsQuerySchema, { sort_by: 'age' })).toBe('Invalid sort field value');
    expect(message(artistsQuerySchema, { order: 'up' })).toBe('Invalid order by field');
    expect(message(artistsQuerySchema, { service: 'myspace' })).toBe('Unknown service');
    expect(message(artistsQuerySchema, { o: '10' })).toBe('Offset 10 is not a multiple of 50.');
    expect(value(artistsQuerySchema, {})).toEqual({
      o: 0,
      q: undefined,
      service: undefined,
      sort_by: 'favorited',
      order: 'desc',
    });
    for (const field of ['favorited', 'indexed', 'updated', 'name', 'service']) {
      expect(message(artistsQuerySchema, { sort_by: field })).toBeUndefined();
    }
  });

  it('favourites', () => {
    expect(message(favoriteCreatorsQuerySchema, { sort_by: 'published' })).toBe('Invalid sort by value');
    expect(message(favoriteCreatorsQuerySchema, { order: 'sideways' })).toBe('Invalid order value');
    expect(message(favoritePostsQuerySchema, { sort_by: 'updated' })).toBe('Invalid sort by value');
    expect(message(favoritePostsQuerySchema, { order: 'x' })).toBe('Invalid order value');
    expect(value(favoritePostsQuerySchema, { sort_by: 'published', order: 'asc' })).toEqual({
      o: 0,
      sort_by: 'published',
      order: 'asc',
    });
  });

  it('popular period', () => {
    expect(message(popularPeriod, 'year')).toBe('year is not a valid period');
    expect(value(popularPeriod, undefined)).toBe('recent');
    expect(message(popularQuerySchema, { period: 'decade' })).toBe('decade is not a valid period');
    expect(message(popularQuerySchema, { date: '2024-13-45' })).toBe('"2024-13-45" is not a valid date.');
    expect(message(popularQuerySchema, { date: '2023-02-29' })).toBe('"2023-02-29" is not a valid date.');
    expect(value(popularQuerySchema, { date: '2024-06-04', period: 'week' })).toEqual({
      date: '2024-06-04',
      period: 'week',
      o: 0,
    });
  });

  it('search minimums: posts 2, DMs 3', () => {
    expect(message(postsQuerySchema, { q: 'a' })).toBe('Search query must be at least 2 characters long.');
    expect(message(postsQuerySchema, { q: 'ab' })).toBeUndefined();
    expect(message(dmsQuerySchema, { q: 'ab' })).toBe('Search query must be at least 3 characters long.');
    expect(message(dmsQuerySchema, { q: 'abc' })).toBeUndefined();
    expect(value(postsQuerySchema, { tag: ['a', 'b'] })).toEqual({ o: 0, q: undefined, tag: ['a', 'b'] });
  });
});

describe('hash search and link requests', () => {
  it('hashes are 64 hex characters, lowercased', () => {
    expect(value(sha256Hash, ` ${HASH.toUpperCase()} `)).toBe(HASH);
    expect(message(sha256Hash, 'abc')).toBe('Invalid hash!');
    expect(message(sha256Hash, 'g'.repeat(64))).toBe('Invalid hash!');
    expect(message(sha256Hash, undefined)).toBe('Invalid hash!');
  });

  it('link target and reason', () => {
    expect(message(linkTarget, '')).toBe('Input data is required.');
    expect(message(linkTarget, 'patreon')).toBe('Invalid input data length.');
    expect(message(linkTarget, 'patreon/1/2')).toBe('Invalid input data length.');
    expect(message(linkTarget, 'patreon/')).toBe('Invalid input data length.');
    expect(value(linkTarget, 'fanbox/42')).toEqual({ service: 'fanbox', artist_id: '42' });
    expect(message(linkReason, 'x'.repeat(141))).toBe('Reason must be at most 140 characters long.');
    expect(value(linkReason, 'x'.repeat(140))).toBe('x'.repeat(140));
    expect(message(linkRequestSchema, { service: 'fanbox', artist_id: '' })).toBe('Artist ID is required.');
  });

  it('parseOrThrow raises the first message', () => {
    expect(() => parseOrThrow(sha256Hash, 'nope')).toThrow('Invalid hash!');
  });
});
