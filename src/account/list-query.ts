import { UUID_PATTERN } from "../base/uuid";
import { type NewestFirstPage, newestFirstPaging } from "../http/paging";

/** The batch list's query: its cursor carries "b:<createdAt>|<id>" of the last batch shown. */
export const batchListPaging = newestFirstPaging("b:", UUID_PATTERN, 100);

export type ListPage = NewestFirstPage;
