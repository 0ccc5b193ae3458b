// Progress on a terminal: one self-overwriting stderr line ("3/12 specs/github.yaml").
// Silent when stderr is not a terminal, so logs and CI output stay clean.
type Stream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/** Runs shorter than this never show progress (no flicker on quick checks). */
const QUIET_MS = 300;

export class Progress {
  readonly #stream: Stream;
  readonly #total: number;
  readonly #enabled: boolean;
  readonly #startedAt = performance.now();
  #done = 0;
  #current = '';
  #drawn = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(stream: Stream, total: number) {
    this.#stream = stream;
    this.#total = total;
    this.#enabled = stream.isTTY === true && total > 0;
    // Redraw on a timer too, so one slow spec still shows what is being read.
    if (this.#enabled) this.#timer = setInterval(() => this.#draw(), 250).unref();
  }

  start(item: string): void {
    this.#current = item;
    this.#draw();
  }

  done(): void {
    this.#done++;
    this.#draw();
  }

  finish(): void {
    clearInterval(this.#timer);
    if (this.#drawn) this.#stream.write('\r\x1b[2K');
    this.#drawn = false;
  }

  #draw(): void {
    if (!this.#enabled || performance.now() - this.#startedAt < QUIET_MS) return;
    const width = Math.max(20, (this.#stream.columns ?? 80) - 1);
    const line = `${this.#done}/${this.#total} ${this.#current}`;
    this.#stream.write(`\r\x1b[2K${line.length > width ? `...${line.slice(-(width - 3))}` : line}`);
    this.#drawn = true;
  }
}
