/// <reference path="./oidc-provider.d.ts" />
// Shared test parts. Test code only: never imported by a published package's src.
export { Browser } from "./browser.js";
export { CLIENT_ID, CLIENT_SECRET, startIdP, type IdPAccount, type TestIdP } from "./oidc-idp.js";
export { FAULT_MESSAGE, faultyAdapter, type AdapterFault, type FaultSwitch } from "./faulty-adapter.js";
export { freePort, stopChild, waitForOk } from "./child-process.js";
