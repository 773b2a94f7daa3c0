/**
 * 015: PostgreSQL got indexes in the listings' own order and a kept count of the posts
 * (./postgres/015_listing_order.ts). SQLite needs neither: its `published DESC` already puts undated
 * posts last and reads posts_creator_published backwards, and its count(*) reads the smallest index. The
 * version is taken here so that both engines keep the same numbers.
 */
import type { Migration } from './index.ts';

const migration: Migration = {
  version: 15,
  name: 'listing_order',
  sql: '',
};

export default migration;
