/**
 * Calls to the v1 API of a test app as a signed-in session or as a guest: `get('/posts', alice)`.
 * The app is read at each call, so a suite may build a new one in beforeEach.
 */
import type { Express } from 'express';
import request from 'supertest';
import type { TestSession } from './session.ts';

/** The call with the session's cookie, or as it is for a guest. */
export const as = (session: TestSession | undefined, call: request.Test) => (session ? call.set('Cookie', session.cookie) : call);

export function v1Calls(app: () => Express) {
  const url = (path: string) => `/api/v1${path}`;
  return {
    get: (path: string, session?: TestSession) => as(session, request(app()).get(url(path))),
    post: (path: string, session?: TestSession) => as(session, request(app()).post(url(path))),
    del: (path: string, session?: TestSession) => as(session, request(app()).delete(url(path))),
  };
}
