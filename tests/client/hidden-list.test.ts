/** The device's hidden list: kept per guest/account, changed one item at a time, written as the page's style. */
import { describe, expect, it } from 'vitest';
import { applyHiddenStyle, isHidden, readHiddenList, withHidden, writeHiddenList } from '@site/client/hidden-list.ts';
import { memoryStorage } from '@site/client/stores/session.ts';
import { HIDING_STORAGE_KEYS } from '@shared/constants.ts';
import { HIDING_STYLE_ID, hiddenItemsCss } from '@shared/hiding.ts';

describe('the device list', () => {
  it('keeps the guest list and the account copy apart', () => {
    const storage = memoryStorage();
    writeHiddenList(storage, false, { creators: ['patreon:1'], tags: [] });
    writeHiddenList(storage, true, { creators: [], tags: ['sky'] });
    expect(readHiddenList(storage, false)).toEqual({ creators: ['patreon:1'], tags: [] });
    expect(readHiddenList(storage, true)).toEqual({ creators: [], tags: ['sky'] });
    expect(JSON.parse(storage.dump()[HIDING_STORAGE_KEYS.guest])).toEqual({ creators: ['patreon:1'], tags: [] });
  });

  it('reads nothing from missing, broken or refusing storage', () => {
    expect(readHiddenList(null, false)).toEqual({ creators: [], tags: [] });
    expect(readHiddenList(memoryStorage({ [HIDING_STORAGE_KEYS.guest]: '[oops' }), false)).toEqual({ creators: [], tags: [] });
    const refusing = {
      getItem: () => {
        throw new DOMException('no', 'SecurityError');
      },
      setItem: () => undefined,
      removeItem: () => undefined,
    };
    expect(readHiddenList(refusing, false)).toEqual({ creators: [], tags: [] });
  });

  it('hides (newest first, once) and shows again', () => {
    let list = { creators: ['patreon:1'], tags: [] as string[] };
    list = withHidden(list, 'creator', 'fanbox:2', true);
    list = withHidden(list, 'creator', 'fanbox:2', true);
    list = withHidden(list, 'tag', 'sky', true);
    expect(list).toEqual({ creators: ['fanbox:2', 'patreon:1'], tags: ['sky'] });
    expect(isHidden(list, 'creator', 'patreon:1')).toBe(true);
    list = withHidden(list, 'creator', 'patreon:1', false);
    expect(isHidden(list, 'creator', 'patreon:1')).toBe(false);
  });

  it("writes the list's style into the page's <style>", () => {
    const elements = new Map<string, { id: string; textContent: string }>();
    const doc = {
      getElementById: (id: string) => elements.get(id) ?? null,
      createElement: () => ({ id: '', textContent: '' }),
      head: { appendChild: (el: { id: string; textContent: string }) => elements.set(el.id, el) },
    } as unknown as Document;
    const list = { creators: ['patreon:1'], tags: ['sky'] };
    applyHiddenStyle(doc, list);
    expect(elements.get(HIDING_STYLE_ID)?.textContent).toBe(hiddenItemsCss(list));
    applyHiddenStyle(doc, { creators: [], tags: [] });
    expect(elements.get(HIDING_STYLE_ID)?.textContent).toBe('');
  });
});
