export const CONTACT_FIELDS = ["email", "phone"] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

export type EmailType = "work" | "personal";
export type EmailStatus = "valid" | "probable" | "catch_all" | "invalid" | "unknown";
export type PhoneType = "mobile" | "landline" | "voip" | "unknown";

export interface Email {
  address: string;
  type: EmailType;
  status: EmailStatus;
  confidence: number;
  source: string;
}

export interface Phone {
  number: string;
  type: PhoneType;
  confidence: number;
  source: string;
}

export type Outcome = "found" | "not_found";

export interface ItemError {
  code: string;
  message: string;
}
