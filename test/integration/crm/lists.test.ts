import { describe, expect, it } from "vitest";
import { connect, connectedKey, hubspotControl, hubspotPortal, salesforceControl, salesforceOrg } from "../../crm-fake";
import { createKey, expectProblem, request } from "../../helpers";

// GET …/integrations/{provider}/lists: the contact lists a connection may read, to pick a submit's
// source.listId (the console's list picker), a page at a time; not connected and a revoked token
// answer the catalogue's crm_not_connected and crm_unauthorized.

type Page = { lists: { id: string; name: string; size?: number }[]; nextCursor?: string };
const lists = (key: string, provider: string, cursor?: string) =>
  request(`/v2/test/integrations/${provider}/lists${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`, { key });

describe("a CRM's lists", () => {
  it("HubSpot: names and sizes, a page of 100 then the rest; not connected, a bad cursor, a revoked token", async () => {
    const { key } = await createKey();
    await expectProblem(await lists(key, "hubspot"), 409, "crm_not_connected");
    const many = Object.fromEntries(
      Array.from({ length: 101 }, (_, i) => [String(100 + i), i === 0 ? ["1", "2"] : []]),
    );
    const token = await hubspotPortal([], many, [], { "100": "Webinar sign-ups" });
    expect((await connect(key, "hubspot", { token })).status).toBe(200);

    const first = await (await lists(key, "hubspot")).json<Page>();
    expect(first.lists).toHaveLength(100);
    expect(first.lists[0]).toEqual({ id: "100", name: "Webinar sign-ups", size: 2 });
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await (await lists(key, "hubspot", first.nextCursor)).json<Page>();
    expect(second).toEqual({ lists: [{ id: "200", name: "List 200", size: 0 }] });
    await expectProblem(await lists(key, "hubspot", "not-ours!"), 400, "invalid_query");

    await hubspotControl("revoke", { token });
    await expectProblem(await lists(key, "hubspot"), 409, "crm_unauthorized");
  });

  it("Salesforce: the Contact list views by label, not its reports; not connected, a revoked token", async () => {
    const { key } = await createKey();
    await expectProblem(await lists(key, "salesforce"), 409, "crm_not_connected");
    const views = { "00B000000000001AAA": ["003000000000001AAA"], "00O000000000001AAA": [] };
    const token = await salesforceOrg([], views, { "00B000000000001AAA": "Trade show leads" });
    await connectedKey("salesforce", token, key);

    expect(await (await lists(key, "salesforce")).json()).toEqual({
      lists: [{ id: "00B000000000001AAA", name: "Trade show leads" }],
    });
    await salesforceControl("revoke", { token });
    await expectProblem(await lists(key, "salesforce"), 409, "crm_unauthorized");
  });
});
