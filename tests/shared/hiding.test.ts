/**
 * The hiding rules: the head script writes exactly hiddenItemsCss of the device's list (account copy
 * when signed in, else the guest's), tags and keys are checked, and stored lists are cleaned on read.
 */
import { describe, expect, it } from 'vitest';
import { HIDING_STORAGE_KEYS } from '@shared/constants.ts';
import {
  HIDING_INIT_SCRIPT,
  HIDING_STYLE_ID,
  cardTagsAttribute,
  hiddenItemsCss,
  hiddenTagProblem,
  normalizeHiddenList,
  parseCreatorKey,
  type HiddenList,
} from '@shared/hiding.ts';
import { INLINE_SCRIPTS } from '@shared/inline-scripts.ts';

/** Runs the head script against a storage and returns the <style> it appended. */
function runHeadScript(items: Record<string, string>): { id: string; textContent: string } {
  const appended: { id: string; textContent: string }[] = [];
  const document = { createElement: () => ({ id: '', textContent: '' }), head: { appendChild: (el: never) => appended.push(el) } };
  const localStorage = { getItem: (key: string) => items[key] ?? null };
  new Function('document', 'localStorage', HIDING_INIT_SCRIPT)(document, localStorage);
  expect(appended).toHaveLength(1);
  return appended[0];
}

const list: HiddenList = { creators: ['patreon:100', 'fanbox:a"b\\c'], tags: ['night sky', 'r-18', 'quote"d'] };

describe('the head script', () => {
  it('is allowed by the Content-Security-Policy list', () => {
    expect(INLINE_SCRIPTS).toContain(HIDING_INIT_SCRIPT);
  });

  it("writes the guest's list as hiddenItemsCss does", () => {
    const style = runHeadScript({ [HIDING_STORAGE_KEYS.guest]: JSON.stringify(list) });
    expect(style.id).toBe(HIDING_STYLE_ID);
    expect(style.textContent).toBe(hiddenItemsCss(list));
    expect(style.textContent).toContain('.creator-card[data-service="patreon"][data-id="100"]');
    expect(style.textContent).toContain('.post-card[data-service="patreon"][data-user="100"]');
    expect(style.textContent).toContain('.post-card[data-tags~="night%20sky"]');
    expect(style.textContent).toContain('.hidden-notice[data-hidden-creator="patreon:100"]{display:block!important}');
  });

  it("uses the account's copy when signed in, and the guest list otherwise", () => {
    const account = { creators: ['gumroad:9'], tags: [] };
    const items = {
      logged_in: 'yes',
      [HIDING_STORAGE_KEYS.guest]: JSON.stringify(list),
      [HIDING_STORAGE_KEYS.account]: JSON.stringify(account),
    };
    expect(runHeadScript(items).textContent).toBe(hiddenItemsCss(account));
    expect(runHeadScript({ ...items, logged_in: 'no' }).textContent).toBe(hiddenItemsCss(list));
  });

  it('writes an empty style for no list or a broken one', () => {
    expect(runHeadScript({}).textContent).toBe('');
    expect(runHeadScript({ [HIDING_STORAGE_KEYS.guest]: '{not json' }).textContent).toBe('');
  });
});

describe('the rules', () => {
  it('matches a card tag as a whole word', () => {
    expect(cardTagsAttribute(['night sky', 'a"b'])).toBe('night%20sky a%22b');
  });

  it('checks tags and creator keys', () => {
    expect(hiddenTagProblem('sky')).toBeNull();
    expect(hiddenTagProblem('  ')).toBe('Tag is required.');
    expect(hiddenTagProblem(' sky')).toContain('spaces');
    expect(hiddenTagProblem('x'.repeat(201))).toContain('at most');
    expect(hiddenTagProblem('a\nb')).toContain('control');
    expect(parseCreatorKey('patreon:1:2')).toEqual({ service: 'patreon', id: '1:2' });
    expect(parseCreatorKey('myspace:1')).toBeNull();
    expect(parseCreatorKey('patreon:')).toBeNull();
  });

  it('cleans a stored list', () => {
    expect(normalizeHiddenList({ creators: ['patreon:1', 'patreon:1', 'nope', 3], tags: ['a', ' b', 'a'] })).toEqual({
      creators: ['patreon:1'],
      tags: ['a'],
    });
    expect(normalizeHiddenList(null)).toEqual({ creators: [], tags: [] });
  });
});
