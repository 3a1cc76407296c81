import { deepStrictEqual, equal } from "node:assert/strict";
import { componentFor, hostsIn, matchHost } from "../../domain/mod.ts";

Deno.test("hosts are read from URLs, bare hosts with ports and error lines, never file names or IPs", () => {
  deepStrictEqual(hostsIn("https://api.openai.com/v1/chat/completions"), ["api.openai.com"]);
  deepStrictEqual(hostsIn("api.stripe.com:443"), ["api.stripe.com"]);
  deepStrictEqual(hostsIn("getaddrinfo ENOTFOUND registry.npmjs.org"), ["registry.npmjs.org"]);
  deepStrictEqual(
    hostsIn(
      "Error: connect ETIMEDOUT 140.82.112.3:443 (fetching https://API.GitHub.com/x from index.html)",
    ),
    ["api.github.com"],
  );
  deepStrictEqual(hostsIn("nothing to see"), []);
  equal(hostsIn(Array.from({ length: 30 }, (_, i) => `h${i}.example.com`).join(" ")).length, 10);
});

Deno.test("a host belongs to a vendor by its domains, probes and status page; the most specific wins", () => {
  const aws = {
    name: "AWS",
    domains: ["amazonaws.com", "aws.amazon.com"],
    statusPageUrl: "https://health.aws.amazon.com/health/status",
  };
  equal(
    matchHost("s3.eu-west-1.amazonaws.com", aws)?.why,
    "s3.eu-west-1.amazonaws.com is under amazonaws.com, a domain of AWS",
  );
  equal(matchHost("amazonaws.com", aws)?.why, "amazonaws.com is a domain of AWS");
  equal(matchHost("console.aws.amazon.com", aws)?.matched, "aws.amazon.com");
  equal(
    matchHost("health.aws.amazon.com", aws)?.matched,
    "aws.amazon.com",
    "a domain says more than the page",
  );
  equal(matchHost("notamazonaws.com", aws), null, "a suffix is not a subdomain");
  const probed = {
    name: "Acme",
    domains: [],
    statusPageUrl: "https://status.acme.test",
    probes: ["https://edge.acmecdn.net/ping"],
  };
  equal(matchHost("eu.edge.acmecdn.net", probed)?.why, "statusd probes edge.acmecdn.net for Acme");
  equal(matchHost("status.acme.test", probed)?.why, "status.acme.test is the status page of Acme");
});

Deno.test("the component a host names: its region above its service, none without a label", () => {
  const components = [
    { id: "ec2-eu-west-1", name: "Amazon EC2 (Ireland)" },
    { id: "s3-us-east-1", name: "Amazon S3 (N. Virginia)" },
    { id: "s3-eu-west-1", name: "Amazon S3 (Ireland)" },
  ];
  equal(
    componentFor("s3.eu-west-1.amazonaws.com", "amazonaws.com", components)?.id,
    "s3-eu-west-1",
  );
  equal(
    componentFor("ec2.eu-west-1.amazonaws.com", "amazonaws.com", components)?.id,
    "ec2-eu-west-1",
  );
  equal(componentFor("amazonaws.com", "amazonaws.com", components), null);
  equal(componentFor("www.amazonaws.com", "amazonaws.com", components), null);
  equal(componentFor("lambda.ap-south-1.amazonaws.com", "amazonaws.com", components), null);
});
