// Waiting until a benchmark's servers are idle, so that no run starts while another run's
// leftovers still load the machine. What a run leaves behind is not visible through the
// Worker, and not all of it takes the CPU: after the floor that sends, its queue's consumer
// drains for about 2 s (a third of a CPU), then, after a lull of 2-3 s, the runtime writes
// for another 5-7 s (hundreds of write calls every half second, little CPU; the thousands of
// new objects' databases, presumably as they are put away). A submit measured during that
// ran at 52-70 requests/s using 40% of a CPU, where with 15 s of rest it ran at 148-172 using
// all of one: it was waiting on the disk, not the CPU. So this asks the operating system for
// both, per process of each server's group.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { LocalServer } from "../scripts/local-server";
import { SMOKE } from "./smoke";

// Linux's clock ticks per second for /proc/<pid>/stat times (USER_HZ; 100 on every common build).
const TICKS_PER_SECOND = 100;
const SAMPLE_MS = 500;
// Without /proc (not Linux), a fixed rest instead: 15 s was enough after the floor that sends.
const REST_WITHOUT_PROC_MS = 15_000;

/** CPU seconds and write calls so far of the processes of the given process groups, from /proc (Linux). */
function usage(groups: ReadonlySet<number>): { cpuSeconds: number; writes: number } {
  let ticks = 0;
  let writes = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // After the command's name (in parentheses, and it may hold spaces): state, ppid, pgrp, ..., utime (12th), stime (13th).
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (!groups.has(Number(fields[2]))) continue;
      ticks += Number(fields[11]) + Number(fields[12]);
      writes += Number(/^syscw: (\d+)$/m.exec(readFileSync(`/proc/${entry}/io`, "utf8"))?.[1] ?? 0);
    } catch {
      // Exited meanwhile.
    }
  }
  return { cpuSeconds: ticks / TICKS_PER_SECOND, writes };
}

/**
 * Until the servers' processes together have used less than `cpuShare` of one CPU and made at
 * most `writes` write calls in every half second of the last `quietMs` (the lull above is
 * shorter), or `timeoutMs` has passed: then it goes on, saying so. Without /proc, a fixed rest.
 * Returns how long it waited.
 */
export async function untilQuiet(
  servers: readonly LocalServer[],
  { cpuShare = 0.05, writes = 20, quietMs = 5_000, timeoutMs = 90_000 } = {},
): Promise<number> {
  const started = Date.now();
  // A smoke's figures mean nothing (bench/smoke.ts): nothing to wait for.
  if (SMOKE) return 0;
  if (!existsSync("/proc/self/stat")) {
    await new Promise((resolve) => setTimeout(resolve, REST_WITHOUT_PROC_MS));
    return Date.now() - started;
  }
  const groups = new Set(servers.map((server) => server.processGroup() ?? -1));
  let quietSince = started;
  let before = usage(groups);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    const now = usage(groups);
    const busy =
      now.cpuSeconds - before.cpuSeconds >= (cpuShare * SAMPLE_MS) / 1000 || now.writes - before.writes > writes;
    before = now;
    if (busy) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) return Date.now() - started;
    if (Date.now() - started > timeoutMs) {
      console.warn(`bench: the servers were still busy after ${timeoutMs / 1000} s; measuring anyway`);
      return Date.now() - started;
    }
  }
}
