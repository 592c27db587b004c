import { describe, expect, it } from "vitest";
import { explain, explainCrm } from "../../console/explain";
import { LIMIT_NAMES, perWindow } from "../../console/words";
import { CRMS } from "../../src/crm/crms";
import { crmListNotFound, crmTokenRefused, crmUnavailable } from "../../src/http/errors";
import { type ApiError, problemResponse } from "../../src/http/problem";
import { ENDPOINT_TYPES } from "../../src/rate-limit/endpoint-types";
import { rateLimited } from "../../src/rate-limit/rate-limited";

// The problems as the API makes them (its own constructors) and answers them, as the page receives them.
const received = async (error: ApiError) => ({ problem: await problemResponse(error.init, "req-1").json() });

describe("the console says each error once, in words, with the time to wait once (issue 51)", () => {
  it("a CRM that asked us to wait: one sentence with its retry time, never the API's own as well", async () => {
    const said = explainCrm(await received(crmUnavailable("HubSpot", 10)), "hubspot");
    expect(said).toBe("HubSpot did not answer, or asked us to wait. Try again in 10 s.");
    expect(said.match(/again|retry/gi)).toHaveLength(1);
  });

  it("a rate limit by its plain name and its limit, never the endpoint type or the tier", async () => {
    const said = explain(
      await received(
        rateLimited("contact_info_request", { limit: 50, windowSeconds: 60, resetSeconds: 12, used: 50, remaining: 0 }),
      ),
    );
    expect(said).toBe("Too many requests for your limit (Starting batches: 50 a minute). Try again in 12 s.");
    expect(said).not.toMatch(/contact_info|Tier/);
  });

  it("names every endpoint type plainly, and says windows as a person would", () => {
    for (const type of ENDPOINT_TYPES) expect(LIMIT_NAMES[type]).toMatch(/^[A-Z][a-z ]+$/);
    expect(`${LIMIT_NAMES.contact_info_request}: ${perWindow(50, 60)}`).toBe("Starting batches: 50 a minute");
    expect(perWindow(1000, 3600)).toBe("1,000 an hour");
    expect(perWindow(3, 2)).toBe("3 every 2 s");
  });

  it("each CRM's help in its declaration's words (the page reads them at build time, issue 47)", async () => {
    for (const { name, words } of Object.values(CRMS)) {
      const refused = explainCrm(await received(crmTokenRefused(words.label)), name);
      expect(refused).toBe(`${words.label} refused this token: give ${words.tokenHelp ?? words.token}, then connect.`);
      const notFound = explainCrm(await received(crmListNotFound(words.label, "7")), name);
      expect(notFound).toBe(`${words.label} has no such list: check its ID, ${words.listIdHelp ?? words.listId}.`);
    }
  });
});
