import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { BatchReport } from "../../src/account/report";
import { accountStub } from "../../src/account/stub";
import { emptyUsage } from "../../src/account/usage";

// The account's side of the budget (issue 50): a reservation shrinks as a batch's reports bring its charges,
// even when the report that says it completed does not carry them all (reports are paged), and settles at 0;
// a deleted batch settles too; an alert percent is answered until the hub has it, then never again that month.
const now = () => new Date().toISOString();
const key = { keyId: "key_settle", monthlyCredits: null };

function reportOf(id: string, state: { charged: number; completed?: boolean; deleted?: boolean }, seqs: number[]) {
  const usage = { ...emptyUsage(), items: 1, found: 1, credits: 10 };
  const report: BatchReport = {
    batch: {
      id,
      totalItems: 5,
      completedItems: 0,
      failedItems: 0,
      createdAt: now(),
      completedAt: state.completed ? now() : null,
      creditsCharged: state.charged,
      creditsRefunded: 0,
      maxCredits: 50,
      deletedAt: state.deleted ? now() : null,
      expiredAt: null,
      peopleComplete: false,
    },
    entries: seqs.map((seq) => ({
      seq,
      day: now().slice(0, 10),
      usage,
      ledger: [{ at: now(), kind: "charge", index: seq, contact: "email", source: "sandbox", credits: 10 }],
    })),
  };
  return report;
}

describe("the account settles a batch's reservation from its reports (issue 50)", () => {
  it("holds cap less charges while open, the unreported charges once complete, then nothing", async () => {
    const account = accountStub(env, { customerId: `cus_${crypto.randomUUID()}`, environment: "test" });
    await account.setBudget({ monthlyCredits: 100, alertPercents: [20] }, key);
    const batchId = crypto.randomUUID();
    expect(await account.reserve(batchId, 50, key)).toEqual({ ok: true, limited: true });
    // Asked again (an idempotent retry), it reserves nothing more.
    expect(await account.reserve(batchId, 50, key)).toEqual({ ok: true, limited: true });
    expect(await account.budget(key)).toMatchObject({ usedThisMonth: 0, reserved: 50, remaining: 50 });

    const first = await account.report(reportOf(batchId, { charged: 10 }, [1]));
    expect(first.alerts).toEqual([]);
    expect(await account.budget(key)).toMatchObject({ usedThisMonth: 10, reserved: 40, remaining: 50 });

    // It completed having charged 30, but this report carries only its second row.
    const second = await account.report(reportOf(batchId, { charged: 30, completed: true }, [2]));
    expect(await account.budget(key)).toMatchObject({ usedThisMonth: 20, reserved: 10, remaining: 70 });
    expect(second.alerts).toMatchObject([{ percent: 20, usedThisMonth: 20, monthlyCredits: 100 }]);
    await account.alertsSent(second.alerts);

    const third = await account.report(reportOf(batchId, { charged: 30, completed: true }, [2, 3]));
    expect(third.alerts).toEqual([]);
    expect(await account.budget(key)).toMatchObject({ usedThisMonth: 30, reserved: 0, remaining: 70 });
    const ledger = await account.ledger({ from: "2000-01-01", to: "2999-12-31", limit: 10, afterSeq: null });
    expect(ledger.entries.map(({ index, credits }) => [index, credits])).toEqual([
      [1, 10],
      [2, 10],
      [3, 10],
    ]);
  });

  it("releases a deleted batch's reservation, and refuses what does not fit what remains", async () => {
    const account = accountStub(env, { customerId: `cus_${crypto.randomUUID()}`, environment: "test" });
    await account.setBudget({ monthlyCredits: 60 }, key);
    const batchId = crypto.randomUUID();
    await account.reserve(batchId, 50, key);
    expect(await account.reserve(crypto.randomUUID(), 11, key)).toMatchObject({ ok: false, remaining: 10, cap: 11 });
    await account.report(reportOf(batchId, { charged: 10, deleted: true }, [1]));
    expect(await account.budget(key)).toMatchObject({ usedThisMonth: 10, reserved: 0, remaining: 50 });
    expect((await account.reserve(crypto.randomUUID(), 50, key)).ok).toBe(true);
  });
});
