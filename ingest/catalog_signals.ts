/**
 * The catalog's signals: which npm, PyPI and Go packages and Terraform providers
 * point to which catalog service, from public facts (each service's official SDKs and providers;
 * sources in ingest/CATALOG_SOURCES.md). Monitor suggestions read them.
 * @module
 */
import { z } from "zod";
import { indexSignals, type PackageSignals, type Vendor } from "../domain/mod.ts";
import signals from "./catalog_signals.json" with { type: "json" };

const Names = z.array(z.string().min(1).max(200).regex(/^[^\s*]+\*?$/)).max(50).optional();

const SignalsFileSchema = z.record(
  z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
  z.object({ npm: Names, pypi: Names, go: Names, terraform: Names }).strict(),
);

/**
 * The built-in signals, indexed; services missing from `vendors` (a custom STATUSD_CATALOG
 * without them) are left out, so a suggestion never names a service statusd does not have.
 */
export function loadCatalogSignals(vendors: readonly Vendor[]): PackageSignals {
  const parsed = SignalsFileSchema.parse(signals);
  const known = new Set(vendors.map((v) => v.slug));
  return indexSignals(Object.fromEntries(Object.entries(parsed).filter(([s]) => known.has(s))));
}
