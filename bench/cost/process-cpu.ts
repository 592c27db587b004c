// The CPU time of the workerd processes serving a benchmark (user + system, from /proc): the
// Worker's isolate with its Durable Objects, and around it the runtime's own work for them (SQLite,
// the local queue, KV and the proxy in front). An upper bound of what Cloudflare bills as CPU: it
// bills the Worker's invocations' CPU, and objects by duration.
import { readdirSync, readFileSync } from "node:fs";

// Linux's clock ticks per second (`getconf CLK_TCK`), as /proc/<pid>/stat counts CPU time.
const TICKS_PER_SECOND = 100;

/** Milliseconds of CPU the workerd processes of process group `group` have used so far. */
export function workerdCpuMs(group: number): number {
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp …: comm may hold spaces, so the fields are read after its ")".
    const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (comm !== "workerd" || Number(fields[2]) !== group) continue;
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}
