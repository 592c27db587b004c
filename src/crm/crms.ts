import type { CrmDeclaration, CrmProvider } from "./crm";
import { hubspot } from "./hubspot";
import { salesforce } from "./salesforce";

// Every CRM a customer may connect (each declared in its own file: crm.ts).
export const CRMS: Readonly<Record<CrmProvider, CrmDeclaration>> = { hubspot, salesforce };
