// bench/README.md's section for the learned order against the fixed one (`npm run bench:live`, bench/live-order.ts).
import { existsSync, readFileSync } from "node:fs";

/** One order's run of `npm run bench:live`'s comparison (bench/live-order.ts), as reported. */
export interface OrderRun {
  order: "fixed" | "learned";
  /** Per batch, in order: the first is where the learned order starts from nothing. */
  batches: {
    items: number;
    found: number;
    verifiedEmails: number;
    finderCalls: number;
    paidCalls: number;
    spendUsd: number;
    finderCallsPerVerifiedEmail: number;
    paidCallsPerVerifiedEmail: number;
    spendPerVerifiedEmailUsd: number;
    foundRate: number;
  }[];
}

type Comparison = {
  date: string;
  machine: string;
  ratesByDomain: number[];
  fixed: OrderRun;
  learned: OrderRun;
  saving: { batch: number; finderCalls: number; paidCalls: number; spend: number; foundRateChange: number }[];
};

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

export function orderSection(path: string): string[] {
  const lines = ["### The learned order against the fixed one (`npm run bench:live -- --orders N`)", ""];
  if (!existsSync(path)) return [...lines, "Pending: not yet run.", ""];
  const run = JSON.parse(readFileSync(path, "utf8")) as Comparison;
  const last = run.saving[run.saving.length - 1];
  lines.push(
    `${run.date}, ${run.machine}. The same seeded fake vendors and the same people (email only) twice, each order on a fresh server and customer: every company domain deals the hit rates ${run.ratesByDomain.join(", ")} to the four finders in its own seeded order, so which finder knows a domain best differs by domain. The learned order starts knowing nothing; its first batch learns as items finish, the second shows what it learned. Paid calls: every call a vendor answered (finders, and with them the verifiers); spend at each vendor's declared price. Target: at least 20% fewer paid vendor calls per delivered verified email, with no loss of found rate: ${last && last.paidCalls >= 0.2 && last.foundRateChange >= -0.005 ? "met" : "**missed**"} (batch ${last?.batch}).`,
    "",
    "| order | batch | items | verified emails | found | finder calls / verified email | paid calls / verified email | spend / verified email (USD) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
  );
  for (const order of [run.fixed, run.learned]) {
    for (const [i, b] of order.batches.entries()) {
      lines.push(
        `| ${order.order} | ${i + 1} | ${b.items} | ${b.verifiedEmails} | ${percent(b.foundRate)} | ${b.finderCallsPerVerifiedEmail.toFixed(3)} | ${b.paidCallsPerVerifiedEmail.toFixed(3)} | ${b.spendPerVerifiedEmailUsd.toFixed(4)} |`,
      );
    }
  }
  lines.push("");
  for (const s of run.saving)
    lines.push(
      `- Batch ${s.batch}: the learned order made ${percent(s.paidCalls)} fewer paid calls (finders alone ${percent(s.finderCalls)}) and spent ${percent(s.spend)} less per delivered verified email; found rate ${s.foundRateChange >= 0 ? "+" : ""}${(s.foundRateChange * 100).toFixed(1)} points.`,
    );
  lines.push("");
  return lines;
}
