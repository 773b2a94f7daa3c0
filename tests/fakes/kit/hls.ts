/**
 * HLS playlists as the fakes serve them: a master playlist naming renditions, and VOD media playlists
 * (of the clip's real MPEG-TS segments, or of any segment URIs with their durations).
 */
import { media } from './media.ts';

export const HLS_TYPE = 'application/vnd.apple.mpegurl';

/** A master playlist naming its renditions (relative URIs, as the sites write them). */
export function hlsMaster(variants: { uri: string; width: number; height: number; bandwidth: number }[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3'];
  for (const v of variants)
    lines.push(`#EXT-X-STREAM-INF:BANDWIDTH=${v.bandwidth},RESOLUTION=${v.width}x${v.height},CODECS="avc1.42c00d"`, v.uri);
  return `${lines.join('\n')}\n`;
}

/** A VOD media playlist of these segments; `decimals` is how precisely the site writes EXTINF durations. */
export function hlsPlaylist(segments: { uri: string; seconds: number }[], decimals = 6): string {
  const target = Math.max(...segments.map((s) => Math.ceil(s.seconds)));
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${target}`, '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD'];
  for (const s of segments) lines.push(`#EXTINF:${s.seconds.toFixed(decimals)},`, s.uri);
  lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

/** A VOD media playlist of the clip's segments (media.segments()) under these URIs. */
export const hlsMedia = (uris: string[]) => hlsPlaylist(uris.map((uri, i) => ({ uri, seconds: media.segmentSeconds[i] })));
