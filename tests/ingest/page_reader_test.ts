import { equal } from "node:assert/strict";
import { pageName } from "../../ingest/mod.ts";

Deno.test("a page's name is its data's page name, else its site name or title, without 'Status'", () => {
  equal(pageName('{"page": {"name": "Crisp"}}', ""), "Crisp");
  equal(pageName('{"page_title": "Linear Status"}', ""), "Linear");
  equal(pageName('{"data": {"attributes": {"company_name": "Together AI"}}}', ""), "Together AI");
  equal(
    pageName("<rss/>", "<html><title>Quay.io Status - Incident History</title></html>"),
    "Quay.io",
  );
  equal(pageName("", "<title>Acme - Status Page</title>"), "Acme");
  equal(pageName("", "<title>Acme System Status</title>"), "Acme");
  equal(
    pageName("", '<meta property="og:site_name" content="Acme &amp; Co"><title>x</title>'),
    "Acme & Co",
  );
  equal(pageName("", "<title>Status</title>"), "Status", "a name that is only the word is kept");
  equal(pageName("", "<html><body>no title</body></html>"), null);
});
