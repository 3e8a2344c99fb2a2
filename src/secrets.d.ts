// The worker's secrets and optional settings that wrangler.toml does not list (C32): set with
// `wrangler secret put`, or in `.dev.vars` locally. Declared for both names of the environment.
type ManagementSettings = {
  /** The operator token: at least 43 characters (32 random bytes, base64url). */
  ADMIN_TOKEN?: string;
  /** Cloudflare Access: the team's domain (`<team>.cloudflareaccess.com`). */
  ACCESS_TEAM_DOMAIN?: string;
  /** Cloudflare Access: the application's AUD tag. */
  ACCESS_AUD?: string;
  /**
   * C39: the key of the widget's tokens and proofs of work (at least 43 characters); unset, they are
   * signed with a key derived from ADMIN_TOKEN.
   */
  WIDGET_KEY?: string;
  /**
   * C39: after a rotation of WIDGET_KEY (or of ADMIN_TOKEN, while WIDGET_KEY is unset), the time of
   * the rotation and the key before it, `<ISO time> <key>`: tokens it signed before then are
   * accepted for a day after it, so that no open page's token becomes "forged".
   */
  WIDGET_KEY_PREVIOUS?: string;
};
/** C47: the mail provider's credentials (EMAIL_PROVIDER); never a var, never shown. */
type MailSecrets = {
  /** The provider's API key (SES: the access key id). */
  EMAIL_API_KEY?: string;
  /** SES: the secret access key. */
  EMAIL_API_SECRET?: string;
};
interface Env extends ManagementSettings, MailSecrets {}
declare namespace Cloudflare {
  interface Env extends ManagementSettings, MailSecrets {}
}
