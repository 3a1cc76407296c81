/**
 * What a team's own files say it depends on (monitor suggestions): package manifests
 * and lock files of npm, PyPI and Go, Terraform lock and configuration files, and lists of
 * domains, read into package names, Terraform providers, regions and domains. Pure and bounded:
 * a file statusd cannot read is an error naming it, never a guess.
 * @module
 */

/** The package ecosystems statusd reads. */
export type Ecosystem = "npm" | "pypi" | "go" | "terraform";

/** What one file names. */
export interface FileDependencies {
  /** Packages (npm, PyPI, Go modules) or providers (`hashicorp/aws`), by ecosystem. */
  readonly packages: readonly { readonly ecosystem: Ecosystem; readonly name: string }[];
  /** Cloud regions the file names (`eu-west-1`, `europe-west1`, `westeurope`). */
  readonly regions: readonly string[];
  /** Host names the file names (domain lists). */
  readonly domains: readonly string[];
}

/** Why a file cannot be read. */
export interface FileProblem {
  readonly problem: string;
}

/** Most bytes of one file read. */
export const MAX_FILE_BYTES = 2_000_000;
/** Most names taken from one file. */
export const MAX_NAMES_PER_FILE = 20_000;
/**
 * Longest line the line-based readers look at: no manifest line is this long, and skipping
 * longer ones keeps every reader linear in the file's size whatever a line holds.
 */
export const MAX_LINE_CHARS = 4_096;

/** The file's lines, those over {@link MAX_LINE_CHARS} left out. */
function linesOf(text: string): string[] {
  return text.split("\n").filter((l) => l.length <= MAX_LINE_CHARS);
}

/** The file names (or suffixes) statusd reads, for error messages and docs. */
export const READABLE_FILES: readonly string[] = [
  "package.json",
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "requirements*.txt",
  "pyproject.toml",
  "Pipfile",
  "go.mod",
  "go.sum",
  ".terraform.lock.hcl",
  "*.tf",
  "domains.txt (one host name per line)",
];

type Reader = (text: string) => FileDependencies | FileProblem;

const empty = { packages: [], regions: [], domains: [] } as const;

function packagesOf(ecosystem: Ecosystem, names: Iterable<string>): FileDependencies {
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.size >= MAX_NAMES_PER_FILE) break;
    const name = n.trim();
    if (name) seen.add(name);
  }
  return { ...empty, packages: [...seen].map((name) => ({ ecosystem, name })) };
}

function json(text: string): Record<string, unknown> | FileProblem {
  try {
    const v = JSON.parse(text);
    return v !== null && typeof v === "object" && !Array.isArray(v)
      ? v as Record<string, unknown>
      : { problem: "expected a JSON object" };
  } catch (e) {
    return { problem: `not valid JSON (${(e as Error).message.slice(0, 120)})` };
  }
}

const isProblem = (v: unknown): v is FileProblem =>
  typeof v === "object" && v !== null && "problem" in v;

const keysOf = (v: unknown): string[] =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? Object.keys(v) : [];

const packageJson: Reader = (text) => {
  const doc = json(text);
  if (isProblem(doc)) return doc;
  const fields = [
    "dependencies",
    "devDependencies",
    "peerDependencies",
    "optionalDependencies",
  ];
  if (!fields.some((f) => f in doc) && !("name" in doc)) {
    return { problem: "no dependencies, devDependencies or name: not a package.json" };
  }
  return packagesOf("npm", fields.flatMap((f) => keysOf(doc[f])));
};

const packageLock: Reader = (text) => {
  const doc = json(text);
  if (isProblem(doc)) return doc;
  // lockfile v2/v3: "packages" keyed by "node_modules/<name>"; v1: "dependencies" keyed by name.
  const fromPackages = keysOf(doc.packages).flatMap((k) => {
    const i = k.lastIndexOf("node_modules/");
    return i < 0 ? [] : [k.slice(i + "node_modules/".length)];
  });
  const names = fromPackages.length ? fromPackages : keysOf(doc.dependencies);
  if (!("lockfileVersion" in doc)) return { problem: "no lockfileVersion: not an npm lock file" };
  return packagesOf("npm", names);
};

/** `"@scope/name@^1", name@~2:` → names (yarn v1 and berry). */
const yarnLock: Reader = (text) => {
  const names: string[] = [];
  for (const line of linesOf(text)) {
    if (!line || line.startsWith(" ") || line.startsWith("#") || !line.trimEnd().endsWith(":")) {
      continue;
    }
    for (const spec of line.slice(0, line.trimEnd().length - 1).split(",")) {
      const s = spec.trim().replace(/^"|"$/g, "");
      const at = s.indexOf("@", 1);
      if (at > 0) names.push(s.slice(0, at));
    }
  }
  return packagesOf("npm", names);
};

/** pnpm-lock.yaml: `  /name@1.2.3:`, `  '@scope/name@1.2.3':`, `  /name/1.2.3:` under packages. */
const pnpmLock: Reader = (text) => {
  const names: string[] = [];
  const entry = /^ {2}'?\/?((?:@[^/@\s']+\/)?[^/@\s':]+)[@/]\d/;
  for (const line of linesOf(text)) {
    const m = entry.exec(line);
    if (m) names.push(m[1]!);
  }
  return packagesOf("npm", names);
};

/** PEP 503 normalised name. */
export function pypiName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

const requirementName = (spec: string): string | null => {
  const m = /^[ \t]*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(spec);
  return m ? pypiName(m[1]!) : null;
};

/** The line up to a `#` that starts it or follows a space (a comment in requirements and TOML). */
function withoutComment(line: string): string {
  for (let i = line.indexOf("#"); i >= 0; i = line.indexOf("#", i + 1)) {
    if (i === 0 || line[i - 1] === " " || line[i - 1] === "\t") return line.slice(0, i);
  }
  return line;
}

const requirementsTxt: Reader = (text) => {
  const names: string[] = [];
  for (const raw of linesOf(text)) {
    const line = withoutComment(raw).trim();
    if (!line || line.startsWith("-") || /^[a-z+]+:\/\//i.test(line)) continue;
    const egg = /#egg=([A-Za-z0-9._-]+)/.exec(raw);
    const name = egg ? pypiName(egg[1]!) : requirementName(line);
    if (name) names.push(name);
  }
  return packagesOf("pypi", names);
};

/** `[table]` or `[[array.of.tables]]` → the table's name; null for any other line. */
function tableHeader(line: string): string | null {
  if (!line.startsWith("[") || !line.endsWith("]")) return null;
  let start = 0;
  while (line[start] === "[") start++;
  let end = line.length;
  while (end > start && line[end - 1] === "]") end--;
  const name = line.slice(start, end).trim();
  return name && !name.includes("[") && !name.includes("]") ? name : null;
}

/** pyproject.toml (PEP 621 `dependencies = [...]`, Poetry tables) and Pipfile `[packages]`. */
const pyproject: Reader = (text) => {
  const names: string[] = [];
  let table = "";
  let inArray = false;
  for (const raw of linesOf(text)) {
    const line = withoutComment(raw).trim();
    const header = tableHeader(line);
    if (header !== null) {
      table = header;
      inArray = false;
      continue;
    }
    if (
      /^[a-z-]+[ \t]*=[ \t]*\[/.test(line) &&
      (/^dependencies[ \t]*=/.test(line) || table === "project.optional-dependencies" ||
        table === "dependency-groups")
    ) {
      inArray = true;
    }
    if (inArray) {
      for (const m of line.matchAll(/["']([^"']+)["']/g)) {
        const name = requirementName(m[1]!);
        if (name) names.push(name);
      }
      if (line.includes("]")) inArray = false;
      continue;
    }
    const poetry = /(^|\.)(dependencies|dev-dependencies)$/.test(table) &&
      table.startsWith("tool.poetry");
    if (poetry || table === "packages" || table === "dev-packages") {
      const m = /^["']?([A-Za-z0-9][A-Za-z0-9._-]*)["']?[ \t]*=/.exec(line);
      if (m && m[1] !== "python") names.push(pypiName(m[1]!));
    }
  }
  return packagesOf("pypi", names);
};

const goMod: Reader = (text) => {
  const names: string[] = [];
  let block = false;
  let module = false;
  for (const raw of linesOf(text)) {
    const comment = raw.indexOf("//");
    const line = (comment < 0 ? raw : raw.slice(0, comment)).trim();
    if (/^module[ \t]+\S/.test(line)) module = true;
    if (/^require[ \t]*\($/.test(line)) {
      block = true;
      continue;
    }
    if (block && line === ")") {
      block = false;
      continue;
    }
    const m = block ? /^(\S+)[ \t]+v/.exec(line) : /^require[ \t]+(\S+)[ \t]+v/.exec(line);
    if (m) names.push(m[1]!);
  }
  if (!module && names.length === 0) {
    return { problem: "no module or require lines: not a go.mod" };
  }
  return packagesOf("go", names);
};

const goSum: Reader = (text) =>
  packagesOf(
    "go",
    linesOf(text).flatMap((l) => {
      const m = /^(\S+)[ \t]+v\S+[ \t]+h1:/.exec(l.trim());
      return m ? [m[1]!] : [];
    }),
  );

/** `registry.terraform.io/hashicorp/aws` → `hashicorp/aws` (lower case). */
export function terraformProvider(source: string): string {
  const parts = source.trim().toLowerCase().split("/");
  return parts.slice(-2).join("/");
}

const terraformLock: Reader = (text) => {
  const names = linesOf(text).flatMap((line) => {
    const m = /^[ \t]*provider[ \t]+"([^"]+)"[ \t]*\{/.exec(line);
    return m ? [terraformProvider(m[1]!)] : [];
  });
  if (names.length === 0) return { problem: 'no provider "…" blocks: not a .terraform.lock.hcl' };
  return packagesOf("terraform", names);
};

/** Region-looking values: AWS `eu-west-1`, GCP `europe-west1`, Azure `westeurope`. */
const isRegion = (v: string): boolean =>
  /^[a-z]{2}(?:-gov)?-[a-z]+-\d$/.test(v) || /^[a-z]+-[a-z]+\d+$/.test(v) ||
  (/^[a-z]+\d?$/.test(v) && /.(?:central|east|west|north|south)/.test(v));

const terraformConfig: Reader = (text) => {
  const names: string[] = [];
  const regions = new Set<string>();
  for (const line of linesOf(text)) {
    for (const m of line.matchAll(/\bsource[ \t]*=[ \t]*"([^"]*)"/g)) {
      // module sources are paths or URLs with more parts; providers are namespace/type
      const source = m[1]!;
      const parts = source.split("/").length;
      if (parts >= 2 && parts <= 3 && !source.includes("::") && !source.startsWith(".")) {
        names.push(terraformProvider(source));
      }
    }
    const provider = /^[ \t]*provider[ \t]+"([a-z0-9_-]+)"[ \t]*\{/.exec(line);
    if (provider) names.push(`hashicorp/${provider[1]}`);
    for (const m of line.matchAll(/\b(?:region|location)[ \t]*=[ \t]*"([a-z0-9-]{1,40})"/g)) {
      if (isRegion(m[1]!)) regions.add(m[1]!);
    }
  }
  return { ...packagesOf("terraform", names), regions: [...regions].slice(0, 50) };
};

/** A host name as catalog domains hold it, or null. */
export function hostOf(text: string): string | null {
  let t = text.trim().toLowerCase();
  if (!t || t.startsWith("#")) return null;
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//.test(t)) t = new URL(t).hostname;
  } catch {
    return null;
  }
  t = t.replace(/^\*\./, "").replace(/\.$/, "").split("/")[0]!.split(":")[0]!;
  return /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/.test(t)
    ? t
    : null;
}

const domainList: Reader = (text) => {
  const hosts = new Set<string>();
  for (const token of text.split(/[\s,]+/)) {
    const h = hostOf(token);
    if (h) hosts.add(h);
    if (hosts.size >= MAX_NAMES_PER_FILE) break;
  }
  if (hosts.size === 0) return { problem: "no host names found" };
  return { ...empty, domains: [...hosts] };
};

/** The reader for a file name, or null when statusd cannot read that kind of file. */
function readerFor(fileName: string): Reader | null {
  const base = fileName.split(/[\\/]/).pop()!.toLowerCase();
  if (base === "package.json") return packageJson;
  if (base === "package-lock.json" || base === "npm-shrinkwrap.json") return packageLock;
  if (base === "yarn.lock") return yarnLock;
  if (base === "pnpm-lock.yaml" || base === "pnpm-lock.yml") return pnpmLock;
  if (/^requirements.*\.(txt|in)$/.test(base) || base === "constraints.txt") {
    return requirementsTxt;
  }
  if (base === "pyproject.toml" || base === "pipfile") return pyproject;
  if (base === "go.mod") return goMod;
  if (base === "go.sum") return goSum;
  if (base === ".terraform.lock.hcl") return terraformLock;
  if (base.endsWith(".tf")) return terraformConfig;
  if (base.endsWith(".txt") || base.endsWith(".csv") || base === "domains") return domainList;
  return null;
}

/** Reads one file by its name; a problem names what is wrong with it. */
export function readDependencyFile(
  fileName: string,
  content: string,
): FileDependencies | FileProblem {
  const reader = readerFor(fileName);
  if (reader === null) {
    return { problem: `statusd cannot read "${fileName}"; it reads ${READABLE_FILES.join(", ")}` };
  }
  if (content.length > MAX_FILE_BYTES) {
    return { problem: `larger than ${MAX_FILE_BYTES} characters` };
  }
  if (content.trim() === "") return { problem: "empty" };
  return reader(content.replace(/\r\n?/g, "\n"));
}

/** True when `result` is a problem rather than what the file names. */
export function isFileProblem(result: FileDependencies | FileProblem): result is FileProblem {
  return "problem" in result;
}
