/**
 * The data endpoint discovered in a vendor's status page (adapters whose endpoint the page URL
 * does not give, e.g. status.io pages on a custom domain). NULL until discovered; cleared when
 * the catalog changes the vendor's status page URL or platform.
 */
export default {
  version: 4,
  name: "vendor_endpoint",
  sql: `
ALTER TABLE vendors ADD COLUMN endpoint_url TEXT;
`,
};
