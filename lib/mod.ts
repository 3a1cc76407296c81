/**
 * General tools with no domain in them and no dependency, for the server and the \`status\` CLI
 * alike: IP addresses and ranges (the private-address guard), proxy variables, and the readers
 * of dependency files (npm, PyPI, Go, Terraform).
 * @module
 */
export {
  type AddressAllowance,
  checkedHost,
  embeddedV4,
  formatIp,
  inRange,
  type IpAddress,
  type IpRange,
  isAddressAllowed,
  isLocalhostName,
  limitKey,
  NO_PRIVATE_ADDRESSES,
  type NonPublicKind,
  nonPublicKind,
  parseAllowance,
  parseIp,
  parseIpRange,
} from "./address.ts";
export { toUri } from "./uri.ts";
export {
  firstSet,
  NO_PROXIES,
  NO_PROXY_VARIABLES,
  type NoProxyEntry,
  parseNoProxy,
  parseProxyUrl,
  PROXY_URL_VARIABLES,
  PROXY_VARIABLES,
  proxyFor,
  type ProxyServer,
  type ProxySettings,
  type ProxyUrlVariable,
  proxyVariablesOf,
} from "./proxy.ts";
export {
  type Ecosystem,
  type FileDependencies,
  type FileProblem,
  hostOf,
  isFileProblem,
  MAX_FILE_BYTES,
  pypiName,
  READABLE_FILES,
  readDependencyFile,
  terraformProvider,
} from "./dependency_files.ts";
