/**
 * Discord's lists ('- item', '* item', '1. item' at the start of a line; an indented line continues
 * the item above, so indented markers nest). discord-markdown-parser 1.3.1 has no list rule, and
 * simple-markdown's own follows CommonMark (blank lines, paragraphs) and only runs in block mode.
 */
import { rulesExtended } from 'discord-markdown-parser';

type Rule = (typeof rulesExtended)[string];
type ParseFn = Parameters<Rule['parse']>[1];
type State = Parameters<Rule['parse']>[2];

type Capture = RegExpExecArray & { ordered?: boolean };

const MARKER = /^( *)([-*]|\d{1,9}\.) +(?=\S)/;

interface ListMatch {
  text: string;
  indent: number;
  ordered: boolean;
}

/** The list at the start of `source`: its lines, and the line break after it (it ends a block). */
function matchList(source: string): ListMatch | undefined {
  const first = MARKER.exec(source);
  if (!first) return undefined;
  const indent = first[1].length;
  const ordered = first[2] !== '-' && first[2] !== '*';
  let end = source.indexOf('\n');
  while (end !== -1) {
    const next = source.indexOf('\n', end + 1);
    const line = source.slice(end + 1, next === -1 ? undefined : next);
    const marker = MARKER.exec(line);
    const lead = /^( *)\S/.exec(line);
    const sameList = marker && marker[1].length === indent && (marker[2] !== '-' && marker[2] !== '*') === ordered;
    const nested = lead && lead[1].length > indent;
    if (!sameList && !nested) break;
    end = next;
  }
  const text = end === -1 ? source : source.slice(0, end + 1);
  return { text, indent, ordered };
}

/** The items of a matched list, each with its marker removed and its continuation lines dedented. */
function splitItems(match: ListMatch): { items: string[]; start: number } {
  const items: string[] = [];
  let start = 1;
  let width = 0;
  for (const line of match.text.replace(/\n$/, '').split('\n')) {
    const marker = MARKER.exec(line);
    if (marker && marker[1].length === match.indent) {
      if (items.length === 0 && match.ordered) start = Number.parseInt(marker[2], 10);
      width = marker[0].length;
      items.push(line.slice(width));
    } else {
      const spaces = /^ */.exec(line)![0].length;
      items[items.length - 1] += `\n${line.slice(Math.min(spaces, width))}`;
    }
  }
  return { items, start };
}

export const listRule = {
  order: rulesExtended.blockQuote.order,
  match(source: string, _state: unknown, previous: string): Capture | null {
    // Only at the start of a line.
    if (previous && !previous.endsWith('\n')) return null;
    const match = matchList(source);
    if (!match) return null;
    return Object.assign([match.text], { index: 0, input: source, ordered: match.ordered }) as unknown as Capture;
  },
  parse(capture: Capture, parse: ParseFn, state: State) {
    const match = matchList(capture[0])!;
    const { items, start } = splitItems(match);
    return {
      ordered: match.ordered,
      start,
      items: items.map((item) => parse(item, { ...state, inline: true })),
    };
  },
} as unknown as Rule;
