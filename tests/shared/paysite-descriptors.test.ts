/**
 * Every paysite descriptor (shared/paysites/<id>.ts) is complete and consistent with the list, so a new
 * paysite cannot be half added: its file is listed, its id is its file name, its key fields each have a
 * rule that gives its own messages, and it has a key help page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importSubmissionError } from '@shared/importer.ts';
import { PAYSITE_DESCRIPTORS, PAYSITES, isPaysite, paysite, paysiteLabel, type CreatorTab } from '@shared/paysites/index.ts';
import { KeyRuleFailure } from '@shared/paysites/key-rules.ts';
import { validSubmission } from '../helpers/import-keys.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FOLDER = path.join(ROOT, 'shared/paysites');
const NOT_DESCRIPTORS = new Set(['index.ts', 'types.ts', 'key-rules.ts']);
const TABS: readonly CreatorTab[] = ['fancards', 'announcements', 'tags'];

/** What a key field's rule says about a value: its message, or null when accepted. */
function ruleMessage(check: (value: string) => string, value: string): string | null {
  try {
    check(value);
    return null;
  } catch (error) {
    if (error instanceof KeyRuleFailure) return error.message;
    throw error;
  }
}

describe('paysite descriptors', () => {
  it('are one file each, named after the id, all of them in the list', async () => {
    const files = fs
      .readdirSync(FOLDER)
      .filter((name) => name.endsWith('.ts') && !NOT_DESCRIPTORS.has(name))
      .sort();
    expect(files).toEqual([...PAYSITES].map((id) => `${id}.ts`).sort());
    for (const file of files) {
      const module = (await import(path.join(FOLDER, file))) as Record<string, unknown>;
      const id = file.replace(/\.ts$/, '');
      expect(module[id], `${file} exports the descriptor as \`${id}\``).toBe(paysite(id as never));
    }
  });

  it('have unique ids and labels, in the list order', () => {
    expect(PAYSITES).toEqual(PAYSITE_DESCRIPTORS.map((d) => d.id));
    expect(new Set(PAYSITES).size).toBe(PAYSITES.length);
    expect(new Set(PAYSITE_DESCRIPTORS.map((d) => d.label)).size).toBe(PAYSITES.length);
    for (const d of PAYSITE_DESCRIPTORS) {
      expect(d.id, d.id).toMatch(/^[a-z][a-z0-9]*$/);
      expect(d.label.trim(), d.id).not.toBe('');
      expect(isPaysite(d.id)).toBe(true);
      expect(paysiteLabel(d.id)).toBe(d.label);
    }
    expect(isPaysite('myspace')).toBe(false);
    expect(paysiteLabel('myspace')).toBe('myspace');
  });

  it('name known tabs once, and say whether cards take attachment thumbnails and DMs are offered', () => {
    for (const d of PAYSITE_DESCRIPTORS) {
      for (const tab of d.tabs) expect(TABS, d.id).toContain(tab);
      expect(new Set(d.tabs).size, d.id).toBe(d.tabs.length);
      expect(typeof d.attachmentThumbnail, d.id).toBe('boolean');
      expect(typeof d.dms, d.id).toBe('boolean');
      expect(new URL(d.profileUrl('123')).protocol, d.id).toBe('https:');
    }
  });

  it('give each key field a label, a limit, a required message and a rule, the session key first', () => {
    for (const d of PAYSITE_DESCRIPTORS) {
      const names = d.keyFields.map((f) => f.name);
      expect(names[0], d.id).toBe('session_key');
      expect(new Set(names).size, d.id).toBe(names.length);
      for (const field of d.keyFields) {
        const where = `${d.id} ${field.name}`;
        expect(field.label.trim(), where).not.toBe('');
        expect(field.requiredMessage, where).toMatch(/ required\.$/);
        expect(Number.isInteger(field.maxLength) && field.maxLength > 0, where).toBe(true);
        expect(typeof field.check, where).toBe('function');
        // The rule accepts the well-formed value and refuses one past the limit, with a message of its own.
        const valid = validSubmission(d.id)[field.name];
        expect(ruleMessage(field.check, valid.trim()), where).toBeNull();
        expect(ruleMessage(field.check, '1'.repeat(field.maxLength + 1)), where).toEqual(expect.any(String));
        // The form and the API give the field's required message when it is left empty.
        expect(importSubmissionError({ ...validSubmission(d.id), [field.name]: ' ' }), where).toBe(field.requiredMessage);
      }
    }
  });

  it('each have a session key help page', () => {
    for (const id of PAYSITES) expect(fs.existsSync(path.join(ROOT, `src/content/keys/${id}.md`)), id).toBe(true);
  });
});
