import * as z from "zod";
import { ENVIRONMENTS } from "../../base/environment";
import { JURISDICTIONS } from "../../base/jurisdiction";

/**
 * What a grant carries to each request with its token (the library stores it encrypted under the token):
 * whose connection it is, so the door can ask that tenant's connections object. Nothing secret, and
 * nothing the connections object does not hold authoritatively (scopes, allowance, the key id).
 */
export const grantPropsSchema = z.object({
  customerId: z.string(),
  environment: z.enum(ENVIRONMENTS),
  jurisdiction: z.enum(JURISDICTIONS).optional(),
  connectionId: z.string(),
});
export type GrantProps = z.infer<typeof grantPropsSchema>;

/** The grant's userId: the tenant, encoded as the library requires (no ":"). */
export const grantUserId = ({ customerId, environment }: GrantProps): string =>
  encodeURIComponent(`${environment}/${customerId}`);
