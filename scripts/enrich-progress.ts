// The enrich command's progress, on stderr: a bar redrawn in place on a
// terminal, otherwise one line every few seconds (logs, CI). Counts only, never
// anyone's data.
export interface Progress {
  total: number;
  done: number;
  found: number;
  failed: number;
}

const TERMINAL_REDRAW_MS = 200;
const LOG_EVERY_MS = 5_000;
const BAR_WIDTH = 30;

const duration = (seconds: number): string => {
  const whole = Math.max(0, Math.round(seconds));
  return whole >= 60 ? `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, "0")}s` : `${whole}s`;
};

/** Seconds left at the rate seen so far; undefined until something is done. */
function etaSeconds(progress: Progress, elapsedMs: number): number | undefined {
  if (progress.done === 0 || elapsedMs <= 0) return undefined;
  return ((progress.total - progress.done) * elapsedMs) / progress.done / 1000;
}

function describe(progress: Progress, elapsedMs: number): string {
  const eta = etaSeconds(progress, elapsedMs);
  return `${progress.done}/${progress.total} rows, ${progress.found} found, ${progress.failed} failed, ETA ${eta === undefined ? "?" : duration(eta)}`;
}

export function progressReporter(stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now) {
  const started = now();
  const terminal = stream.isTTY === true;
  let last = 0;
  let drawn = false;
  let note = "";
  const line = (progress: Progress) => {
    const text = describe(progress, now() - started) + (note ? ` (${note})` : "");
    if (!terminal) return `enrich: ${text}`;
    const filled = progress.total === 0 ? BAR_WIDTH : Math.round((progress.done / progress.total) * BAR_WIDTH);
    return `[${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}] ${text}`;
  };
  return {
    /** Shown beside the counts until cleared; `announce` also says it at once (a wait the server asked for). */
    note(text: string, announce = false) {
      note = text;
      if (!announce) return;
      if (terminal) {
        stream.write(`\r\x1b[2K${text}`);
        drawn = true;
      } else stream.write(`enrich: ${text}\n`);
    },
    update(progress: Progress, force = false) {
      const at = now();
      if (!force && at - last < (terminal ? TERMINAL_REDRAW_MS : LOG_EVERY_MS)) return;
      last = at;
      if (terminal) {
        stream.write(`\r\x1b[2K${line(progress)}`);
        drawn = true;
      } else stream.write(`${line(progress)}\n`);
    },
    /** Ends the bar's line, so that what follows starts on its own. */
    finish() {
      if (drawn) stream.write("\n");
      drawn = false;
    },
  };
}
