import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '@api/app.ts';
import type { Db } from '@api/data/db.ts';
import { NotFoundError } from '@api/http/errors.ts';
import { buildOpenApiDocument, openApiDocument, schemaConstraints, schemaText } from '@api/http/openapi.ts';
import { defineRoutes, route, type Logger } from '@api/http/route.ts';
import { buildInfo } from '@api/build-info.ts';
import { readConfig } from '@api/config.ts';
import { artistIdParam, offset } from '@shared/validation/params.ts';
import { requiredText } from '@shared/validation/rules.ts';
import { tempDb, type TempDb } from './data/helpers.ts';

const testRoutes = defineRoutes('test', [
  route({
    method: 'post',
    version: [1, 2],
    path: '/test/echo',
    summary: 'Echoes a name.',
    body: z.object({ name: requiredText('Name is required.') }),
    response: z.object({ name: z.string() }),
    handler: ({ body }) => ({ name: body.name }),
  }),
  route({
    method: 'get',
    version: [1, 2],
    path: '/test/items',
    summary: 'A paged list.',
    query: z.object({ o: offset }),
    response: z.object({ o: z.number() }),
    handler: ({ query }) => ({ o: query.o }),
  }),
  route({
    method: 'get',
    version: 1,
    path: '/test/items/{id}',
    summary: 'One item.',
    params: z.object({ id: artistIdParam }),
    response: z.object({ id: z.string() }),
    handler: ({ params }) => ({ id: params.id }),
  }),
  route({
    method: 'delete',
    version: 1,
    path: '/test/items/{id}',
    summary: 'Deletes one item.',
    params: z.object({ id: artistIdParam }),
    response: z.null(),
    status: 204,
    handler: () => null,
  }),
  route({
    method: 'get',
    version: 2,
    path: '/test/missing',
    summary: 'Always 404.',
    response: z.object({}),
    handler: () => {
      throw new NotFoundError('Creator not found.');
    },
  }),
  route({
    method: 'post',
    version: 1,
    path: '/test/boom',
    summary: 'Fails unexpectedly.',
    body: z.object({ password: z.string() }),
    response: z.object({}),
    handler: () => {
      throw new Error('database exploded');
    },
  }),
  route({
    method: 'get',
    version: 1,
    path: '/test/bad-shape',
    summary: 'Answers a shape its schema does not allow.',
    response: z.object({ x: z.string() }),
    handler: () => ({ x: 1 }) as unknown as { x: string },
  }),
  route({
    method: 'post',
    version: 1,
    path: '/test/form',
    summary: 'A form endpoint.',
    form: true,
    body: z.object({ name: requiredText('Name is required.') }),
    response: z.object({ name: z.string() }),
    handler: ({ body }) => ({ name: body.name }),
  }),
]);

let temp: TempDb;
let dir: string;
let db: Db;
const logged: { message: string; details?: Record<string, unknown> }[] = [];
const logger: Logger = { error: (message, details) => void logged.push({ message, details }) };
let app: ReturnType<typeof createApp>;

beforeAll(() => {
  temp = tempDb();
  ({ dir, db } = temp);
  app = createApp({
    db,
    config: readConfig({ DATA_DIR: dir, TROVE_ENV: 'test' }),
    build: { version: '0.0.0', commit: 'abc1234', environment: 'test' },
    routes: [testRoutes],
    logger,
  });
});

afterAll(() => temp.cleanup());

describe('meta routes', () => {
  it('GET /api/v1/app_version answers the commit id as a JSON string', async () => {
    const res = await request(app).get('/api/v1/app_version');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.text).toBe('"abc1234"');
  });

  it('defaults to buildInfo().commit', async () => {
    const plain = createApp({ db, config: readConfig({ DATA_DIR: dir }) });
    const res = await request(plain).get('/api/v1/app_version');
    expect(res.body).toBe(buildInfo().commit);
  });

  it('GET /api/schema is an OpenAPI 3 document listing the routes', async () => {
    const res = await request(app).get('/api/schema');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(typeof doc.info.title).toBe('string');
    expect(typeof doc.info.version).toBe('string');
    expect(doc.paths['/api/v1/app_version'].get.summary).toMatch(/commit/);
    expect(doc.paths['/api/v1/app_version'].get.responses['200'].content['application/json'].schema).toEqual({
      type: 'string',
      example: expect.any(String),
    });
    expect(doc.paths['/api/schema'].get).toBeDefined();
    // Test routes document themselves, v2 ones with the envelope.
    expect(doc.paths['/api/v2/test/items'].get.responses['200'].content['application/json'].schema.properties.type).toEqual({
      type: 'string',
      enum: ['api_response'],
    });
    const itemParams = doc.paths['/api/v1/test/items/{id}'].get.parameters;
    expect(itemParams).toContainEqual(expect.objectContaining({ name: 'id', in: 'path', required: true }));
    const listParams = doc.paths['/api/v1/test/items'].get.parameters;
    expect(listParams).toContainEqual(
      expect.objectContaining({ name: 'o', in: 'query', schema: expect.objectContaining({ type: 'integer', multipleOf: 50 }) }),
    );
    expect(doc.paths['/api/v1/test/echo'].post.requestBody.content['application/json'].schema).toBeDefined();

    // Structural checks of the OpenAPI 3 shape: every operation has an id, responses with
    // descriptions, path parameters matching its template, and every $ref resolves.
    const ids = new Set<string>();
    for (const [p, item] of Object.entries<Record<string, any>>(doc.paths)) {
      expect(p.startsWith('/')).toBe(true);
      for (const [method, op] of Object.entries<any>(item)) {
        expect(['get', 'post', 'put', 'patch', 'delete']).toContain(method);
        expect(ids.has(op.operationId)).toBe(false);
        ids.add(op.operationId);
        expect(Object.keys(op.responses).length).toBeGreaterThan(0);
        for (const response of Object.values<any>(op.responses)) expect(typeof response.description).toBe('string');
        const templated = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
        const declared = (op.parameters ?? [])
          .filter((x: any) => x.in === 'path')
          .map((x: any) => x.name)
          .sort();
        expect(declared).toEqual(templated);
      }
    }
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of refs) {
      const target = ref.slice(8, -1).replace('#/', '').split('/');
      let node: any = doc;
      for (const key of target) node = node?.[key];
      expect(node, ref).toBeDefined();
    }
  });
});

describe('router-level answers', () => {
  it('an unknown /api path is a JSON 404', async () => {
    const res = await request(app).get('/api/v1/no/such/thing');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ error: 'Not found.' });
    expect((await request(app).get('/api/v3/anything')).status).toBe(404);
  });

  it('an unknown /api/v2 path answers the v2 error envelope', async () => {
    const res = await request(app).get('/api/v2/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ type: 'api_error', error: { type: 'not_found', message: 'Not found.' } });
  });

  it('a known path with a method it does not answer is a 405 with Allow', async () => {
    const res = await request(app).post('/api/v1/app_version');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(res.body.error).toMatch(/not allowed/);
    const both = await request(app).put('/api/v1/test/items/5');
    expect(both.status).toBe(405);
    expect(both.headers.allow).toBe('GET, HEAD, DELETE, OPTIONS');
  });

  it("a form path says 'Unknown method'", async () => {
    const res = await request(app).get('/api/v1/test/form');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST, OPTIONS');
    expect(res.body).toEqual({ error: 'Unknown method' });
  });

  it('OPTIONS lists the methods', async () => {
    const res = await request(app).options('/api/v1/test/items/5');
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe('GET, HEAD, DELETE, OPTIONS');
  });

  it('a malformed JSON body is a 400, in v1 and v2', async () => {
    const v1 = await request(app).post('/api/v1/test/echo').set('Content-Type', 'application/json').send('{"name": ');
    expect(v1.status).toBe(400);
    expect(v1.body).toEqual({ error: 'The request body is not valid JSON.' });
    const v2 = await request(app).post('/api/v2/test/echo').set('Content-Type', 'application/json').send('{oops}');
    expect(v2.status).toBe(400);
    expect(v2.body).toEqual({
      type: 'api_error',
      error: { type: 'bad_request', message: 'The request body is not valid JSON.' },
    });
  });

  it('an unencodable form body is a 400', async () => {
    const res = await request(app)
      .post('/api/v1/test/form')
      .set('Content-Type', 'application/x-www-form-urlencoded; charset=klingon')
      .send('name=x');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'The request body uses an unsupported encoding.' });
  });

  it('an undecodable path parameter is a 400, not a 500', async () => {
    const res = await request(app).get('/api/v1/test/items/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/URL encoding/);
  });

  it('answers JSON whatever the Accept header says', async () => {
    for (const url of ['/api/v1/app_version', '/api/v1/missing', '/api/v1/test/items?o=75']) {
      const res = await request(app).get(url).set('Accept', 'text/css');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(() => JSON.parse(res.text)).not.toThrow();
    }
  });

  it('HEAD answers like GET without a body', async () => {
    const res = await request(app).head('/api/v1/app_version');
    expect(res.status).toBe(200);
    expect(res.text ?? '').toBe('');
  });
});

describe('declared routes', () => {
  it('validates inputs with the first failing rule as the message', async () => {
    const res = await request(app).get('/api/v1/test/items?o=75');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Offset 75 is not a multiple of 50.' });
    expect((await request(app).get('/api/v1/test/items?o=100')).body).toEqual({ o: 100 });
    expect((await request(app).post('/api/v1/test/echo').send({})).body).toEqual({ error: 'Name is required.' });
    expect((await request(app).post('/api/v1/test/echo')).body).toEqual({ error: 'Name is required.' });
  });

  it('accepts JSON and form bodies in v1', async () => {
    expect((await request(app).post('/api/v1/test/echo').send({ name: 'ann' })).body).toEqual({ name: 'ann' });
    const form = await request(app).post('/api/v1/test/form').type('form').send('name=bob');
    expect(form.body).toEqual({ name: 'bob' });
  });

  it('wraps v2 answers and unwraps v2 bodies', async () => {
    const res = await request(app).get('/api/v2/test/items?o=50');
    expect(res.body).toEqual({ type: 'api_response', data: { o: 50 } });
    const echo = await request(app)
      .post('/api/v2/test/echo')
      .send({ type: 'api_request', data: { name: 'cy' } });
    expect(echo.body).toEqual({ type: 'api_response', data: { name: 'cy' } });
    const bare = await request(app).post('/api/v2/test/echo').send({ name: 'cy' });
    expect(bare.status).toBe(400);
    expect(bare.body.type).toBe('api_error');
  });

  it('answers v2 errors in the envelope with their type', async () => {
    const invalid = await request(app).get('/api/v2/test/items?o=abc');
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({
      type: 'api_error',
      error: { type: 'validation_error', message: 'Offset "abc" is not a whole number.' },
    });
    const missing = await request(app).get('/api/v2/test/missing');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ type: 'api_error', error: { type: 'not_found', message: 'Creator not found.' } });
  });

  it('a 204 route answers no body', async () => {
    const res = await request(app).delete('/api/v1/test/items/5');
    expect(res.status).toBe(204);
    expect(res.text ?? '').toBe('');
  });

  it('an unexpected exception is a logged 500 without bodies or cookies in the log', async () => {
    logged.length = 0;
    const res = await request(app)
      .post('/api/v1/test/boom?key=query-secret')
      .set('Cookie', 'session=cookie-secret')
      .send({ password: 'hunter2' });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Internal server error.' });
    expect(logged).toHaveLength(1);
    const text = JSON.stringify(logged);
    expect(text).toContain('database exploded');
    expect(text).toContain('/api/v1/test/boom');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('cookie-secret');
    expect(text).not.toContain('query-secret');
  });

  it('an answer that breaks its response schema is a logged 500 (checked in tests)', async () => {
    logged.length = 0;
    const res = await request(app).get('/api/v1/test/bad-shape');
    expect(res.status).toBe(500);
    expect(logged[0]?.details?.message).toMatch(/does not match its schema/);
  });
});

describe('documentation helpers', () => {
  it('openApiDocument() documents the standard routes', () => {
    const doc = openApiDocument();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/app_version', '/api/schema']));
    expect(doc.paths['/api/v1/test/items']).toBeUndefined();
  });

  it('documents areas that share a section under one tag, described by the first of them', () => {
    const one = (area: string, path: string) =>
      route({ method: 'get', version: 1, path, summary: area, response: z.string(), handler: () => area });
    const doc = buildOpenApiDocument([
      defineRoutes('alpha', [one('alpha', '/alpha')], { section: 'letters', description: 'Letters.' }),
      defineRoutes('beta', [one('beta', '/beta')], { section: 'letters' }),
      defineRoutes('gamma', [one('gamma', '/gamma')], 'Gamma alone.'),
    ]);
    expect(doc.tags).toEqual([
      { name: 'letters', description: 'Letters.' },
      { name: 'gamma', description: 'Gamma alone.' },
    ]);
    expect(['/api/v1/alpha', '/api/v1/beta', '/api/v1/gamma'].map((path) => doc.paths[path]!.get!.tags)).toEqual([
      ['letters'],
      ['letters'],
      ['gamma'],
    ]);
    // The API's own sections: link requests and account administration under 'moderation', flags
    // under 'favorites', each section once.
    const standard = openApiDocument();
    const names = standard.tags!.map((tag) => tag.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain('flags');
    expect(standard.paths['/api/v1/account/administrator/accounts']!.get!.tags).toEqual(['moderation']);
    expect(standard.paths['/api/v1/{service}/user/{id}/links/new']!.post!.tags).toEqual(['moderation']);
    expect(standard.paths['/api/v2/account/flags/post']!.put!.tags).toEqual(['favorites']);
  });

  it('renders schemas and constraints as readable text', () => {
    const doc = buildOpenApiDocument([testRoutes]);
    const echo = doc.paths['/api/v2/test/echo']!.post!;
    expect(schemaText(echo.requestBody!.content['application/json']!.schema)).toBe(
      '{\n  type?: string;\n  data: {\n    name: string;\n  };\n}',
    );
    const o = doc.paths['/api/v1/test/items']!.get!.parameters!.find((p) => p.name === 'o')!;
    expect(schemaText(o.schema)).toBe('integer');
    expect(schemaConstraints(o.schema)).toEqual(['min 0', 'multiple of 50', 'default 0']);
    expect(schemaText({ type: 'array', items: { type: 'string', nullable: true } })).toBe('(string | null)[]');
    expect(schemaText({ $ref: '#/components/schemas/ErrorV1' })).toBe('ErrorV1');
  });
});
