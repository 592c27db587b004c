import type { ContactSource, FindResult } from "./source";

/**
 * The `live` environment's source until real data sources are connected: it
 * answers "not found" for every item rather than invent data about real people.
 */
export const liveSource: ContactSource = {
  name: "live",
  async find(): Promise<FindResult> {
    return { emails: [], phones: [] };
  },
};
