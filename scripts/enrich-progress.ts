// The enrich command's progress, on stderr: a bar redrawn in place on a
// terminal, otherwise one line every few seconds (logs, CI). Counts only, never
// anyone's data. The counts and the time left are the client's RunTracker's
// (the console page's too): outcomes from the item events, pace from the last minute.
import type { RunProgress } from "../client/src/index";

const TERMINAL_REDRAW_MS = 200;
const LOG_EVERY_MS = 5_000;
const BAR_WIDTH = 30;

const duration = (seconds: number): string => {
  const whole = Math.max(0, Math.round(seconds));
  return whole >= 60 ? `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, "0")}s` : `${whole}s`;
};

function describe(progress: RunProgress): string {
  const suppressed = progress.suppressed > 0 ? `, ${progress.suppressed} suppressed` : "";
  const left =
    progress.secondsLeft !== undefined
      ? `about ${duration(progress.secondsLeft)} left`
      : progress.measured
        ? "finishing the last rows"
        : "measuring the pace";
  return `${progress.done}/${progress.total} rows: ${progress.found} found, ${progress.notFound} not found, ${progress.failed} failed${suppressed}; ${left}`;
}

export function progressReporter(stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now) {
  const terminal = stream.isTTY === true;
  let last = 0;
  let drawn = false;
  let note = "";
  const line = (progress: RunProgress) => {
    const text = describe(progress) + (note ? ` (${note})` : "");
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
    update(progress: RunProgress, force = false) {
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
