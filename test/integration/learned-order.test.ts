import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { accountStub } from "../../src/account/stub";
import { emptyUsage } from "../../src/account/usage";
import {
  createKey,
  deliver,
  envWith,
  faultyItemQueue,
  sentMessage,
  submitBatch,
  until,
  waitForCompletion,
} from "../helpers";

// The learned order through the real consumer, account and batch, vendors faked at the HTTP boundary.
afterEach(() => {
  vi.restoreAllMocks();
});

const DOMAIN = "erasure.example";
const record = (hits: number) => ({ calls: 40, hits, valid: hits });

describe("a waterfall that learns its order", () => {
  it("asks first the finder the customer's records favour for the item's domain, and records what it did", async () => {
    const { key, record: keyRecord } = await createKey({ environment: "live" });
    const tenant = { customerId: keyRecord.customerId, environment: "live" as const };
    const account = accountStub(env, tenant);
    // Earlier items at this domain: only Apollo found anyone.
    const day = new Date().toISOString().slice(0, 10);
    await account.report({
      batch: {
        id: crypto.randomUUID(),
        totalItems: 40,
        completedItems: 40,
        failedItems: 0,
        createdAt: new Date().toISOString(),
        completedAt: new Date().toISOString(),
        creditsCharged: 0,
        maxCredits: null,
        creditsRefunded: 0,
        deletedAt: null,
        expiredAt: null,
        peopleComplete: false,
      },
      entries: [
        {
          seq: 1,
          day,
          usage: {
            ...emptyUsage(),
            domains: { [DOMAIN]: { hunter: record(0), pdl: record(0), apollo: record(40), prospeo: record(0) } },
          },
        },
      ],
    });
    // The batch's messages are held, then handed to a consumer that learns (the suite's is fixed).
    const held: MessageSendRequest[] = [];
    faultyItemQueue(async (_real, messages) => {
      held.push(...messages);
    });
    const person = { firstName: "Lena", lastName: `Order${crypto.randomUUID().slice(0, 8)}`, companyDomain: DOMAIN };
    const batchId = await submitBatch(key, { items: [person], fields: ["email"] }, "live");
    await until(() => held.length, { what: "the item's message", done: (n) => n > 0 });
    vi.restoreAllMocks();
    const learning = envWith({ WATERFALL_ORDER: "learned", WATERFALL_EXPLORATION_PERCENT: "0" });
    await deliver("contact-info-items", held.map(sentMessage), 1, learning);
    const [item] = (await waitForCompletion(key, batchId)).items;
    const asked = item?.sources.filter(({ kind, outcome }) => kind === undefined && outcome !== "skipped");
    expect(asked?.map(({ name }) => name).slice(0, 3)).toEqual(["directory", "pattern", "apollo"]);

    // Its call went into the records the next item is ordered by.
    const learned = await until(
      async () => (await account.screenGroup([], [DOMAIN])).learned?.domains[DOMAIN]?.apollo,
      {
        what: "the item's call in the records",
        done: (apollo) => apollo?.calls === 41,
      },
    );
    expect(learned?.hits).toBe(asked?.find(({ name }) => name === "apollo")?.outcome === "found" ? 41 : 40);
  });
});
