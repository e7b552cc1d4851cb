import { layout } from "./layout.js";

/**
 * The OpenID provider's consent page (`consentPage`): which application asks for which scopes;
 * Allow or Deny posts the decision with the signed request and follows the answer's `url`
 * (the application's redirect URI, with a code or `access_denied`).
 */
export function renderOAuthConsentPage(): string {
  return layout("Allow access?", "/oauth/consent", BODY, SCRIPT);
}

const BODY = `
<div id="consent" hidden>
  <p><strong id="consent-client"></strong> wants to sign you in as <strong id="consent-user"></strong>
  and read:</p>
  <ul id="consent-scopes"></ul>
  <p><button id="consent-allow" type="button">Allow</button>
  <button id="consent-deny" type="button">Deny</button></p>
</div>
`;

const SCOPES = {
  openid: "who you are (your user id)",
  profile: "your name and picture",
  email: "your email address",
  offline_access: "your data while you are away (a refresh token)",
};

// Runs in the browser. The query is the provider's signed request: passed back untouched.
const SCRIPT = `
const SCOPES = ${JSON.stringify(SCOPES)};
const oauthQuery = location.search.slice(1);
const params = new URLSearchParams(oauthQuery);

async function show() {
  const session = await call("/get-session");
  if (!session) throw new Error("Sign in first: open the application's sign-in link again.");
  const client = await call("/oauth2/public-client?client_id=" + encodeURIComponent(params.get("client_id") || ""));
  $("consent-client").textContent = client.client_name || client.client_id;
  $("consent-user").textContent = session.user.email;
  $("consent-scopes").replaceChildren(...(params.get("scope") || "").split(" ").filter(Boolean).map((scope) => {
    const li = document.createElement("li");
    li.textContent = SCOPES[scope] || scope;
    li.dataset.scope = scope;
    return li;
  }));
  $("consent").hidden = false;
}

const decide = (accept) => action(async () => {
  const { url } = await call("/oauth2/consent", { accept, oauth_query: oauthQuery });
  location.assign(url);
});
$("consent-allow").addEventListener("click", decide(true));
$("consent-deny").addEventListener("click", decide(false));

show().catch((error) => showError(error.message));
`;
