/** Accounts as the site shows them; api/data/accounts.ts reads and writes them. Types only. */

export type Role = 'consumer' | 'moderator' | 'administrator';

export interface Account {
  id: number;
  username: string;
  role: Role;
  created_at: string;
}
