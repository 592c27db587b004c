import { describe, expect, it } from "vitest";
import { API_ROUTES } from "../../src/routes/api-routes";
import { createKey, expectProblem, request } from "../helpers";

// One rule for query parameters (issue 46, item 11): every GET route the Worker serves refuses a
// parameter it does not take, the same way, before its own middleware and handler run. The routes
// are read from the list the Worker serves, so a GET route added later is held to the rule here.

/** A path of the route with each `{param}` filled in: the rule runs before anything reads them. */
const concrete = (mount: string, path: string) =>
  `${mount.replace(":environment", "test")}${path}`.replace(/\{[^}]+\}/g, "x").replace(/^\/\//, "/");

const getRoutes = Object.entries(API_ROUTES).flatMap(([mount, routes]) =>
  routes
    .filter(({ route }) => route.method === "get")
    .map(({ route }) => ({
      name: `GET ${mount}${route.path}`,
      path: concrete(mount, route.path),
      taken: Object.keys(route.query?.shape ?? {}),
    })),
);

describe("every GET route's query", () => {
  it("is checked on every GET route there is", () => {
    // /me/sources ignored every parameter before: it is one of them.
    expect(getRoutes.map(({ name }) => name)).toContain("GET /v2/:environment/me/sources");
    expect(getRoutes.length).toBeGreaterThanOrEqual(15);
  });

  it.each(getRoutes)("$name refuses an unknown parameter with a 400 naming it", async ({ path }) => {
    const { key } = await createKey();
    const problem = await expectProblem(await request(`${path}?colour=blue`, { key }), 400, "invalid_query");
    expect(problem).toMatchObject({
      detail: "Invalid query: colour unknown query parameter 'colour'.",
      errors: [{ path: "colour", message: "unknown query parameter 'colour'" }],
    });
  });

  it.each(getRoutes.filter(({ taken }) => taken.length > 0))(
    "$name does not call a parameter it takes unknown",
    async ({ path, taken }) => {
      const { key } = await createKey();
      for (const name of taken) {
        const response = await request(`${path}?${name}=1&colour=blue`, { key });
        const problem = await expectProblem(response, 400, "invalid_query");
        expect(problem.errors).toEqual([{ path: "colour", message: "unknown query parameter 'colour'" }]);
      }
    },
  );
});
