import { type NewestFirstPage, newestFirstPaging } from "../http/paging";

/** The batch list's query: its cursor carries "b:<createdAt>|<id>" of the last batch shown. */
export const batchListPaging = newestFirstPaging(
  "b:",
  "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
  100,
);

export type ListPage = NewestFirstPage;
