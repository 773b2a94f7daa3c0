/** The part of mux.js (7.x, no types of its own) that api/importer/hls.ts uses: MPEG-TS to fMP4. */
declare module 'mux.js' {
  interface TransmuxedSegment {
    initSegment: Uint8Array;
    data: Uint8Array;
  }
  class Transmuxer {
    constructor(options?: { remux?: boolean; keepOriginalTimestamps?: boolean });
    on(event: 'data', listener: (segment: TransmuxedSegment) => void): void;
    on(event: 'done', listener: () => void): void;
    push(bytes: Uint8Array): void;
    flush(): void;
  }
  const muxjs: { mp4: { Transmuxer: typeof Transmuxer } };
  export default muxjs;
}
