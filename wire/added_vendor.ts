/**
 * A status page an account added by URL, as statusd shows it outside (#47).
 * @module
 */
import { z } from "zod";
import { type AddedVendor, type AddedVendorView, PLATFORMS, toIso } from "../domain/mod.ts";
import { StatusLevelSchema, Timestamp } from "./basics.ts";

/** A vendor added by URL. */
export const AddedVendorSchema = z.object({
  slug: z.string().meta({
    description: "Its slug: monitor it, read it and find it in search by this",
    example: "crisp",
  }),
  name: z.string().meta({ description: "What the page calls itself", example: "Crisp" }),
  statusPageUrl: z.string().meta({ example: "https://status.crisp.chat" }),
  platform: z.enum(PLATFORMS).meta({ description: "The status-page platform statusd reads" }),
  currentStatus: StatusLevelSchema,
  components: z.array(z.string()).meta({
    description: "The components its first reading found (a monitor may narrow to them)",
  }),
  addedAt: Timestamp.nullable().meta({
    description: "When your account added it; null for a vendor everyone sees listed already",
  }),
  listed: z.enum(["catalog", "account"]).meta({
    description: "`catalog`: everyone sees it (the catalog, or the operator promoted it); " +
      "`account`: listed in search for the accounts that added it",
  }),
});

/** An added vendor as JSON. */
export function addedVendorJson(v: AddedVendorView): z.infer<typeof AddedVendorSchema> {
  return {
    slug: v.slug,
    name: v.name,
    statusPageUrl: v.statusPageUrl,
    platform: v.platform,
    currentStatus: v.currentStatus,
    components: [...v.components],
    addedAt: toIso(v.addedAt),
    listed: v.listed,
  };
}

/** One of an account's added vendors, as its list shows it. */
export const AddedVendorRowSchema = AddedVendorSchema.omit({ components: true }).extend({
  accounts: z.number().int().meta({ description: "How many accounts have added it" }),
});

/** A row of the account's added vendors as JSON. */
export function addedVendorRowJson(v: AddedVendor): z.infer<typeof AddedVendorRowSchema> {
  const { components: _, ...shown } = addedVendorJson({
    ...v,
    components: [],
    listed: v.origin === "account" ? "account" : "catalog",
  });
  return { ...shown, accounts: v.accounts };
}
