/** A progress reporter: a cli-progress bar on a terminal, a plain line every few seconds otherwise. */
import cliProgress from 'cli-progress';

export interface Progress {
  start(total: number): void;
  update(done: number, total?: number): void;
  stop(): void;
}

export function createProgress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {percentage}% {value}/{total} {eta_formatted} left`, stream, hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    return {
      start: (total) => bar.start(total, 0),
      update: (done, total) => {
        if (total !== undefined) bar.setTotal(total);
        bar.update(done);
      },
      stop: () => bar.stop(),
    };
  }
  let total = 0;
  let lastPrinted = 0;
  let last = 0;
  return {
    start(value) {
      total = value;
      lastPrinted = Date.now();
      stream.write(`${label}: 0/${total}\n`);
    },
    update(done, newTotal) {
      if (newTotal !== undefined) total = newTotal;
      last = done;
      if (Date.now() - lastPrinted >= 2000) {
        lastPrinted = Date.now();
        stream.write(`${label}: ${done}/${total}\n`);
      }
    },
    stop() {
      stream.write(`${label}: ${last}/${total} done\n`);
    },
  };
}
