// oidc-provider ships no types; its ambient declaration must reach every program that compiles
// this package's source (the importing packages' tsconfigs do not list it).
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./oidc-provider.d.ts" />
// Shared test parts. Test code only: never imported by a published package's src.
export { Browser } from "./browser.js";
export { browserFetch, CookieJar } from "./cookie-jar.js";
export { CLIENT_ID, CLIENT_SECRET, startIdP, type IdPAccount, type TestIdP } from "./oidc-idp.js";
export { FAULT_MESSAGE, faultyAdapter, type AdapterFault, type FaultSwitch } from "./faulty-adapter.js";
export { freePort, stopChild, waitForOk } from "./child-process.js";
export { startDNSServer, type TestDNSServer } from "./dns-server.js";
export {
  DATABASE_KINDS,
  freshMysql,
  freshPostgres,
  freshSqlite,
  testDatabase,
  type DatabaseKind,
  type TestDatabase,
} from "./databases.js";
export { TEST_BASE_URL, TEST_SECRET, testAuth, type TestAuth } from "./test-auth.js";
export { client, type ClientAnswer, type ClientOptions, type TestClient } from "./client.js";
export { handlerFetch, type HandlerFetch } from "./handler-fetch.js";
export { rowCounts } from "./row-counts.js";
export {
  badInputBattery,
  badInputCases,
  type BadInputBatteryOptions,
  type BatteryInstance,
} from "./bad-input/battery.js";
export type { BadInputCase } from "./bad-input/body-cases.js";
export {
  CORE_EXPECTATIONS,
  VALIDATION_ERROR,
  type CaseExpectation,
  type CaseExpectations,
  type CaseFamily,
} from "./bad-input/expectations.js";
export {
  fillPath,
  routesFromEndpoints,
  type BatteryRoute,
  type EndpointLike,
  type RouteDerivation,
} from "./bad-input/routes.js";
export { sampleBody, sampleQuery, sampleValue } from "./bad-input/schema-sample.js";
export {
  SoftwareAuthenticator,
  type AuthenticatorSetup,
  type SoftwareCredential,
} from "./webauthn/software-authenticator.js";
export { installBrowserWebAuthn } from "./webauthn/browser-webauthn.js";
export { addVirtualAuthenticator, bundlePageScript, CHROMIUM_ARGS, CHROMIUM_PATH } from "./chromium.js";
