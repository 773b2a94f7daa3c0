/**
 * The short-word index of post search. Words of three or more characters are found by the trigram
 * index (posts_fts, substrings anywhere). Shorter ones cannot be: a trigram index has nothing for them,
 * and most Japanese, Chinese and Korean words are one or two characters. posts_words indexes whole
 * words (unicode61: case and diacritics folded) with 2- and 3-character prefix indexes, and every run
 * of CJK text as its single characters and its pairs of neighbouring characters, so a short word is
 * one index lookup instead of a scan of every post.
 */

const CJK_CHARACTER = '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}ー]';
const CJK_RUN = new RegExp(`${CJK_CHARACTER}+`, 'gu');
const CJK_ONLY = new RegExp(`^${CJK_CHARACTER}+$`, 'u');
const NOT_WORD = /[^\p{L}\p{N}]+/gu;
/** What posts_words' tokenizer (unicode61, default categories) keeps: letters, numbers, private use. */
const TOKEN_SEPARATORS = /[^\p{L}\p{N}\p{Co}]+/u;
const LATIN = /\p{Script=Latin}/u;
const MARKS = /\p{M}+/gu;

/** Unigrams and bigrams of a CJK run, space separated ('森の精' → '森 の 精 森の の精'). */
function cjkGrams(run: string): string {
  const chars = Array.from(run);
  const pairs: string[] = [];
  for (let i = 0; i + 1 < chars.length; i += 1) pairs.push(chars[i] + chars[i + 1]);
  return ` ${chars.join(' ')} ${pairs.join(' ')} `;
}

/** The text stored in posts_words for a post's title and plain-text content. */
export function shortWordText(title: string, text: string): string {
  return `${title} ${text}`.replace(CJK_RUN, cjkGrams);
}

/** A Latin letter without its diacritics ('é' → 'e'), as unicode61's remove_diacritics does; others unchanged. */
function withoutDiacritics(token: string): string {
  let plain = '';
  for (const character of token) {
    const parts = character.normalize('NFD');
    plain += LATIN.test(parts) ? parts.replace(MARKS, '') : character;
  }
  return plain;
}

/**
 * Lower case one character at a time, each to a single character, as unicode61 folds: no final sigma
 * ('Σ' is always 'σ') and no expansions ('İ' is 'i', not 'i' and a combining dot).
 */
function simpleLowerCase(text: string): string {
  let lower = '';
  for (const character of text) {
    const folded = character.toLowerCase();
    lower += folded.length === character.length ? folded : String.fromCodePoint(folded.codePointAt(0) ?? 0);
  }
  return lower;
}

/** A query token folded as shortWordTokens folds the stored ones (lower case, Latin diacritics removed). */
function foldedLikeTokens(token: string): string {
  return withoutDiacritics(simpleLowerCase(token));
}

/**
 * The distinct tokens posts_words holds for a post (unicode61 with remove_diacritics 2 over
 * shortWordText: lower case, Latin diacritics removed), for an engine that stores the tokens itself
 * (PostgreSQL's post_search.words).
 */
export function shortWordTokens(title: string, text: string): string[] {
  const tokens = new Set<string>();
  for (const token of simpleLowerCase(shortWordText(title, text)).split(TOKEN_SEPARATORS)) {
    if (token !== '') tokens.add(withoutDiacritics(token));
  }
  return [...tokens];
}

/**
 * The posts_words query term for a query word of one or two characters: the exact gram for CJK, a
 * prefix for other scripts ('ca' finds 'cat' and 'Café'), or null for a lone letter or digit outside
 * CJK, which would match nearly everything and is left out of the search.
 */
export function shortWordTerm(word: string): string | null {
  const term = shortWordLookup(word);
  return term && `"${term.token}"${term.prefix ? '*' : ''}`;
}

/** What a short query word looks up: the whole CJK word, or its letters and digits as a prefix; null for a lone letter. */
function shortWordLookup(word: string): { token: string; prefix: boolean } | null {
  if (CJK_ONLY.test(word)) return { token: word, prefix: false };
  const bare = word.replace(NOT_WORD, '');
  if (Array.from(bare).length < 2) return null;
  return { token: bare, prefix: true };
}

/**
 * The tsquery term of post_search.words (PostgreSQL) for a query word of one or two characters: the
 * posts_words term of shortWordTerm, folded here as unicode61 folds FTS5's query terms and as
 * shortWordTokens folds the text (lower case, Latin diacritics removed), then quoted: `'森の'` exact,
 * `'ca':*` a prefix; null where shortWordTerm is null. Cast with `::tsquery`, never parsed by a
 * text-search configuration.
 */
export function shortWordTsqueryTerm(word: string): string | null {
  const term = shortWordLookup(word);
  if (!term) return null;
  const quoted = `'${foldedLikeTokens(term.token).replace(/['\\]/g, (c) => `\\${c}`)}'`;
  return term.prefix ? `${quoted}:*` : quoted;
}

/**
 * The key of PostgreSQL's search_postings for a query word of one or two characters (migration 016): the
 * folded token of shortWordTsqueryTerm after `=` when it is looked up exactly, after `^` when it is a
 * prefix (always two characters then); null where shortWordTerm is null.
 */
export function shortWordPostingsKey(word: string): string | null {
  const term = shortWordLookup(word);
  if (!term) return null;
  return `${term.prefix ? '^' : '='}${foldedLikeTokens(term.token)}`;
}

const MAX_PAIR_KEYS = 4;

/**
 * For a query word of three or more CJK characters, the search_postings keys of its neighbouring pairs
 * (at most four of them): every post holding the word holds each pair as a token, since the word lies
 * inside one CJK run of the text and shortWordText spells every run's pairs. The keys find a superset of
 * the posts holding the word; the caller checks the text itself. Null for any other word.
 */
export function cjkPairKeys(word: string): string[] | null {
  const chars = Array.from(word);
  if (chars.length < 3 || !CJK_ONLY.test(word)) return null;
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i += 1) pairs.add(`=${foldedLikeTokens(chars[i] + chars[i + 1])}`);
  return [...pairs].slice(0, MAX_PAIR_KEYS);
}
