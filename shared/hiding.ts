/**
 * Hiding creators and tags (docs/product.md#hiding-creators-and-tags), the rules the browser and the
 * server share: the list's shape and keys, what a valid tag is, and the stylesheet that hides them.
 *
 * Stored pages are the same bytes for everyone, so hiding on the site is a stylesheet written over
 * them: HIDING_INIT_SCRIPT (inline, in <head>, before first paint) reads the device's list from
 * localStorage and writes `hiddenItemsCss(list)` into a <style>; src/client/hiding.ts rewrites it
 * when the list changes. Cards carry the attributes the rules match: creator cards data-service and
 * data-id, post cards data-service, data-user and data-tags (each tag percent-encoded, space
 * separated, so `~=` matches one whole tag), the tags page's items data-tag.
 */
import { isPaysite } from './paysites/index.ts';
import { HIDING_STORAGE_KEYS, STORAGE_KEYS } from './constants.ts';

/** The id of the <style> element the head script writes. */
export const HIDING_STYLE_ID = 'hidden-items-style';
/** Longest tag that can be hidden (longer ones are refused with 400). */
export const HIDDEN_TAG_MAX = 200;
/** Most entries a list keeps (each kind); more is refused: the stylesheet grows with it. */
export const HIDDEN_LIST_MAX = 2000;

/** A hidden list: creators as "service:id", tags as they are. */
export interface HiddenList {
  creators: string[];
  tags: string[];
}

/** "service:id", the key of a hidden creator (the service never contains ':'). */
export function creatorKey(service: string, id: string): string {
  return `${service}:${id}`;
}

/** The service and id of a creator key, or null when it is not one of a known paysite. */
export function parseCreatorKey(key: string): { service: string; id: string } | null {
  const colon = key.indexOf(':');
  if (colon <= 0 || colon === key.length - 1) return null;
  const service = key.slice(0, colon);
  return isPaysite(service) ? { service, id: key.slice(colon + 1) } : null;
}

/** Why a tag cannot be hidden, or null when it can (the API answers 400 with this message). */
export function hiddenTagProblem(tag: string): string | null {
  if (!tag.trim()) return 'Tag is required.';
  if (tag !== tag.trim()) return 'Tag must not start or end with spaces.';
  if ([...tag].length > HIDDEN_TAG_MAX) return `Tag must be at most ${HIDDEN_TAG_MAX} characters long.`;
  if (/[\u0000-\u001f\u007f]/.test(tag)) return 'Tag must not contain control characters.';
  return null;
}

/** A stored list as read back from storage: anything malformed is dropped, duplicates kept once. */
export function normalizeHiddenList(value: unknown): HiddenList {
  const source = (value && typeof value === 'object' ? value : {}) as { creators?: unknown; tags?: unknown };
  const pick = (items: unknown, ok: (item: string) => boolean) =>
    Array.isArray(items)
      ? [...new Set(items.filter((item): item is string => typeof item === 'string' && ok(item)))].slice(0, HIDDEN_LIST_MAX)
      : [];
  return {
    creators: pick(source.creators, (key) => parseCreatorKey(key) !== null),
    tags: pick(source.tags, (tag) => hiddenTagProblem(tag) === null),
  };
}

/** The value of a post card's data-tags: each tag percent-encoded, space separated. */
export function cardTagsAttribute(tags: readonly string[]): string {
  return tags.map(encodeURIComponent).join(' ');
}

/** A CSS string literal (attribute values in selectors). */
function cssString(value: string): string {
  return `"${value.replace(/[\\"]/g, '\\$&').replace(/[\n\r\f]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}"`;
}

/**
 * The stylesheet that hides a list's creators and tags on the static pages. The inline head script
 * repeats this function in plain JavaScript (tests/shared/hiding.test.ts checks that they agree).
 */
export function hiddenItemsCss(list: HiddenList): string {
  let css = '';
  for (const key of list.creators) {
    const colon = key.indexOf(':');
    const service = cssString(key.slice(0, colon));
    const id = cssString(key.slice(colon + 1));
    const k = cssString(key);
    css +=
      `.creator-card[data-service=${service}][data-id=${id}],.post-card[data-service=${service}][data-user=${id}]{display:none!important}` +
      `.main:has(>.hidden-notice[data-hidden-creator=${k}])>:not(.hidden-notice){display:none!important}` +
      `.hidden-notice[data-hidden-creator=${k}]{display:block!important}`;
  }
  for (const tag of list.tags) {
    const t = cssString(encodeURIComponent(tag));
    css += `.post-card[data-tags~=${t}],.tag-list [data-tag=${t}]{display:none!important}`;
  }
  return css;
}

/**
 * Runs before first paint, in <head>: reads the list (the account's copy when signed in, else the
 * guest's) and writes hiddenItemsCss of it into <style id="hidden-items-style">.
 */
export const HIDING_INIT_SCRIPT = `(function () {
  var css = '';
  function str(v) {
    return '"' + v.replace(/[\\\\"]/g, '\\\\$&').replace(/[\\n\\r\\f]/g, function (c) { return '\\\\' + c.charCodeAt(0).toString(16) + ' '; }) + '"';
  }
  try {
    var account = localStorage.getItem(${JSON.stringify(STORAGE_KEYS.loggedIn)}) === 'yes';
    var list = JSON.parse(localStorage.getItem(account ? ${JSON.stringify(HIDING_STORAGE_KEYS.account)} : ${JSON.stringify(HIDING_STORAGE_KEYS.guest)}) || '{}') || {};
    var creators = Array.isArray(list.creators) ? list.creators : [];
    var tags = Array.isArray(list.tags) ? list.tags : [];
    for (var i = 0; i < creators.length; i++) {
      var key = String(creators[i]);
      var colon = key.indexOf(':');
      if (colon <= 0) continue;
      var s = str(key.slice(0, colon)), id = str(key.slice(colon + 1)), k = str(key);
      css += '.creator-card[data-service=' + s + '][data-id=' + id + '],.post-card[data-service=' + s + '][data-user=' + id + ']{display:none!important}' +
        '.main:has(>.hidden-notice[data-hidden-creator=' + k + '])>:not(.hidden-notice){display:none!important}' +
        '.hidden-notice[data-hidden-creator=' + k + ']{display:block!important}';
    }
    for (var j = 0; j < tags.length; j++) {
      var t = str(encodeURIComponent(String(tags[j])));
      css += '.post-card[data-tags~=' + t + '],.tag-list [data-tag=' + t + ']{display:none!important}';
    }
  } catch (e) {
    css = '';
  }
  var style = document.createElement('style');
  style.id = ${JSON.stringify(HIDING_STYLE_ID)};
  style.textContent = css;
  document.head.appendChild(style);
})();`;
