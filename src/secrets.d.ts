// The worker's secrets and optional settings that wrangler.toml does not list (C32): set with
// `wrangler secret put`, or in `.dev.vars` locally. Declared for both names of the environment.
type ManagementSettings = {
  /** The operator token: at least 43 characters (32 random bytes, base64url). */
  ADMIN_TOKEN?: string;
  /** Cloudflare Access: the team's domain (`<team>.cloudflareaccess.com`). */
  ACCESS_TEAM_DOMAIN?: string;
  /** Cloudflare Access: the application's AUD tag. */
  ACCESS_AUD?: string;
};
interface Env extends ManagementSettings {}
declare namespace Cloudflare {
  interface Env extends ManagementSettings {}
}
