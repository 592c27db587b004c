import { type NewestFirstPage, newestFirstPaging } from "../../http/paging";

/** The suppression list's query, paged like the batch list: its cursor carries "s:<createdAt>|<key>" of the last entry shown. */
export const suppressionPaging = newestFirstPaging("s:", "[0-9a-f]{64}", 100);

export type SuppressionPage = NewestFirstPage;
