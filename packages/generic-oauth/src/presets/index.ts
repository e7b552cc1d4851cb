// The reference's presets: each returns a `GenericOAuthConfig` for `genericOAuth({ config })`.
export type { BaseOAuthProviderOptions, PresetEndpointOptions } from "./base.js";
export { auth0, type Auth0Options } from "./auth0.js";
export { gumroad, type GumroadOptions } from "./gumroad.js";
export { hubspot, type HubSpotOptions } from "./hubspot.js";
export { keycloak, type KeycloakOptions } from "./keycloak.js";
export { line, type LineOptions } from "./line.js";
export { microsoftEntraId, type MicrosoftEntraIdOptions } from "./microsoft-entra-id.js";
export { okta, type OktaOptions } from "./okta.js";
export { patreon, type PatreonOptions } from "./patreon.js";
export { slack, type SlackOptions } from "./slack.js";
export { yandex, type YandexOptions } from "./yandex.js";
