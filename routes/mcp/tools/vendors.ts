/**
 * Finding and adding vendors for an agent (#47): `identify_vendor` ("whose outage is this?":
 * the vendor a failed call's host, URL or error line belongs to) and `add_vendor` (a status
 * page statusd lacks, by its URL). They run the same verbs as `GET /api/lookup` and
 * `POST /api/user/vendors`.
 * @module
 */
import { z } from "zod";
import { addVendorByUrl, LOOKUP_MATCHES_MAX, lookupVendors } from "../../../app/mod.ts";
import { addedVendorJson, AddedVendorSchema, lookupJson, LookupSchema } from "../../../wire/mod.ts";
import { defineTool } from "../tool.ts";

/** `identify_vendor`. */
export const identifyVendorTool = defineTool({
  name: "identify_vendor",
  title: "Whose outage is this?",
  description: "Which vendor a host, URL or line of error text belongs to, best first (at most " +
    `${LOOKUP_MATCHES_MAX}): paste what failed (e.g. "getaddrinfo ENOTFOUND ` +
    'registry.npmjs.org", "https://api.openai.com/v1/chat/completions", ' +
    '"s3.eu-west-1.amazonaws.com") and get each vendor with why, its level now, its open ' +
    "incidents and, when the host names one (a region, a service), the component. An empty " +
    "list means no vendor statusd knows owns that host; then try add_vendor with its status page.",
  scopes: ["status:read"],
  input: z.object({ target: z.string().trim().min(1).max(2_000) }),
  output: LookupSchema,
  async run(ctx, caller, { target }) {
    return lookupJson(await lookupVendors(ctx, caller, target));
  },
});

/** `add_vendor`. */
export const addVendorTool = defineTool({
  name: "add_vendor",
  title: "Add a status page",
  description:
    "Adds a vendor statusd lacks by its status page URL (e.g. https://status.example.com): " +
    "statusd reads the page once and answers the vendor (slug, name, platform, components). " +
    "Then watch it with add_monitor. A page statusd lists already answers that vendor; one it " +
    "cannot read is an error saying why (not a status page, unreachable, unsupported).",
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  scopes: ["monitors:write"],
  input: z.object({ statusPageUrl: z.string().trim().min(1).max(2048) }),
  output: AddedVendorSchema,
  async run(ctx, caller, args) {
    return addedVendorJson((await addVendorByUrl(ctx, caller, args)).vendor);
  },
});
