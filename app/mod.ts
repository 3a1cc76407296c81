/**
 * The verbs every surface (REST, MCP, web pages, admin CLI) shares, and who may call them
 * (`policy.ts`). Each verb takes an {@link AppContext}; the store behind it is a port, so no
 * verb knows the database engine.
 * @module
 */
export {
  type AppContext,
  type AppContextDeps,
  type AppSettings,
  createAppContext,
} from "./context.ts";
export {
  type Access,
  type AdminCaller,
  authorize,
  type Caller,
  callerAccount,
  type Credential,
  OPEN,
  ROLE_SCOPES,
  roleAllows,
  scopesFor,
} from "./policy.ts";
export { authenticate } from "./auth.ts";
export {
  CANDIDATE_RECHECK_MS,
  type CandidateJob,
  checkCandidates,
  startCandidateChecks,
} from "./candidates.ts";
export { LOOKUP_MATCHES_MAX, LOOKUP_VENDORS, lookupVendors } from "./lookup.ts";
export {
  ADDED_VENDOR_LIMIT,
  type AddedVendorResult,
  addVendorByUrl,
  AddVendorInput,
  FREE_ADDED_VENDOR_LIMIT,
  listAddedVendors,
  promoteVendor,
  removeAddedVendor,
} from "./added_vendors.ts";
export {
  createDependencyReader,
  type DependencyReader,
  isDependencyReaderWorker,
} from "./dependency_reader.ts";
export {
  addMember,
  createAccount,
  createAccountHashedBy,
  currentAccount,
  deviceToken,
  listAccounts,
  type Membership,
  membershipOf,
  MIN_PASSWORD_LENGTH,
  type NewAccount,
  setMemberRole,
  setPlan,
  setSlaTarget,
  SIGN_IN_ACCOUNT_LIMIT,
  signIn,
  signUp,
  signUpTerms,
} from "./accounts.ts";
export { refundAttempt, takeAttempt } from "./attempts.ts";
export { IDEMPOTENCY_TTL_MS, idempotentCreate, type IdempotentResult } from "./idempotency.ts";
export { type ServicePageData, servicePageData } from "./service_page.ts";
export {
  BOARD_LIMIT,
  boardBySlug,
  type BoardEntry,
  boardHosts,
  boardRecordBySlug,
  boardServiceSlugs,
  type BoardView,
  createBoard,
  createGroup,
  deleteBoard,
  deleteGroup,
  FREE_BOARD_LIMIT,
  getBoard,
  getGroup,
  GROUP_LIMIT,
  type GroupView,
  listBoards,
  listGroups,
  updateBoard,
  updateGroup,
} from "./boards.ts";
export {
  createMonitor,
  DEFAULT_MONITOR_LIMIT,
  deleteMonitor,
  FREE_MONITOR_LIMIT,
  getMonitor,
  listMonitors,
  MONITOR_UPTIME_DAYS,
  type MonitorView,
  READ_MONITORS,
  updateMonitor,
  WRITE_MONITORS,
} from "./monitors.ts";
export {
  acceptSuggestions,
  type FileSummary,
  type Suggestion,
  type SuggestionReport,
  suggestMonitors,
} from "./suggestions.ts";
export {
  HashGate,
  HASHING,
  hashPassword,
  PASSWORD_COST,
  type PasswordCost,
  passwordHashing,
  storedHash,
} from "./password.ts";
export {
  authenticateKey,
  CREATE_KEYS,
  type CreatedKey,
  createKey,
  KEY_PLAN,
  KEY_PREFIX,
  keyCreationBlocker,
  type KeyManager,
  type KeyView,
  LIST_KEYS,
  LIST_SCOPES,
  listKeys,
  listScopes,
  looksLikeKey,
  parseScopes,
  REVOKE_KEYS,
  revokeKey,
  revokeKeyByName,
} from "./keys.ts";
export { createKeyUseRecorder, type KeyUseRecorder } from "./key_uses.ts";
export {
  checkFormToken,
  endSession,
  newFormToken,
  resolveSession,
  SESSION_TTL_MS,
  startSession,
  type WebSession,
} from "./sessions.ts";
export { READ_SLA_REPORT, SLA_DAYS, SLA_PLAN, type SlaReport, slaReport } from "./sla.ts";
export {
  ACCESS_TOKEN_TTL_MS,
  approveAuthorization,
  authenticateClient,
  type AuthorizationCheck,
  type AuthorizationRequest,
  canonicalResource,
  checkAuthorizationRequest,
  type ClientCredentials,
  type ClientRegistration,
  CODE_TTL_MS,
  type CodeExchange,
  type ConnectedClient,
  exchangeCode,
  GRANT_MAX_AGE_MS,
  grantableScopes,
  isOAuthAccessToken,
  issuer,
  listConnectedClients,
  mcpResource,
  OAUTH_SCOPES,
  type OAuthClientInfo,
  OAuthError,
  type OAuthErrorCode,
  redirectUriMatches,
  redirectUriProblem,
  redirectWith,
  refresh,
  REFRESH_GRACE_MS,
  REFRESH_TOKEN_TTL_MS,
  type RefreshRequest,
  registerClient,
  revoke,
  revokeClient,
  type TokenResponse,
  verifyAccessToken,
} from "./oauth/mod.ts";
export { MCP_PLAN, type McpCaller, mcpCaller, USE_MCP } from "./mcp.ts";
export {
  CATALOG_UPTIME_DAYS,
  changesSince,
  getService,
  type HealthReport,
  healthReport,
  latestChangeId,
  listedAccount,
  listIncidents,
  listServices,
  oldestChangeId,
  type PollHealth,
  type ProviderOverview,
  providersOverview,
  SERVICE_SORTS,
  type ServiceFilter,
  serviceLastChanges,
  type ServiceSort,
  serviceStatusOf,
  suggestSlugs,
} from "./catalog.ts";
export { DISRUPTED_LEVELS, type HomeOverview, homeOverview } from "./home.ts";
export {
  HISTORY_MAX_DAYS,
  READ_SERVICE_HISTORY,
  type ServiceHistory,
  serviceHistory,
  type ServiceUptime,
  serviceUptime,
} from "./reports.ts";
export {
  boardIncidentFeed,
  CALENDAR_KEEP_FINISHED_DAYS,
  FEED_ITEMS,
  type IncidentFeed,
  incidentFeed,
  listMaintenances,
  maintenanceCalendar,
  MAINTENANCES_MAX,
  type MaintenanceScope,
  type NamedIncident,
} from "./maintenances.ts";
export {
  pruneExpired,
  RETENTION_SCHEDULE,
  type RetentionJob,
  type RetentionReport,
  startRetention,
} from "./retention.ts";
export {
  type ComponentHistory,
  componentHistory,
  PAST_INCIDENTS_MAX,
  pastIncidents,
  recentRecoveries,
  type Recovery,
  serviceTimeToResolve,
} from "./track_record.ts";
export {
  accountWarning,
  type EarlyWarning,
  earlyWarningOf,
  listReports,
  openEpisodes,
  openWarnings,
  type OwnEyes,
  ownEyesOf,
  REPORT_NOTE_MAX,
  REPORT_REPEAT_MS,
  REPORT_TROUBLE,
  REPORTS_PER_ACCOUNT_HOUR,
  REPORTS_PER_REPORTER_HOUR,
  reportTrouble,
  type ReportView,
} from "./own_eyes.ts";
export {
  type CreatedRoute,
  createRoute,
  deleteRoute,
  type DeliveryView,
  FREE_ROUTES,
  getDelivery,
  getRoute,
  listDeliveries,
  listRoutes,
  READ_ALERTS,
  redeliver,
  type RouteView,
  routeView,
  SEND_TEST_LIMITS,
  sendTest,
  updateRoute,
  WRITE_ALERTS,
} from "./alert_routes.ts";
export { createRule, deleteRule, getRule, listRules, updateRule } from "./alert_rules.ts";
export { evaluateAlerts, EVALUATOR_CURSOR } from "./alert_evaluator.ts";
export { evaluateReadings } from "./alert_readings.ts";
export { evaluateWarnings } from "./alert_warnings.ts";
export { startAlertEvaluator } from "./alert_loop.ts";
export {
  acknowledgeByLink,
  acknowledgeEvent,
  acknowledgeLink,
  createEscalation,
  deleteEscalation,
  getEscalation,
  listEscalations,
  updateEscalation,
} from "./escalations.ts";
export {
  confirmByLink,
  createSubscription,
  deleteSubscription,
  getSubscription,
  listSubscriptions,
  PENDING_EXPIRY_MS,
  PENDING_PER_BOARD,
  resubscribeByLink,
  subscribeToPublicBoard,
  SUBSCRIPTION_LIMIT,
  SUBSCRIPTION_ROUTE_PREFIX,
  type SubscriptionView,
  unsubscribeByLink,
  unsubscribeLink,
  WRITE_SUBSCRIPTIONS,
} from "./subscriptions.ts";
export {
  CONFIRMATIONS_PER_ADDRESS,
  confirmMailByLink,
  type RecipientState,
  recipientStates,
} from "./mail_consent.ts";
