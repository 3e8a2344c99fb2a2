// The worker's secrets and optional settings that wrangler.toml does not list (C32): set with
// `wrangler secret put`, or in `.dev.vars` locally.
interface Env {
  /** The operator token: at least 43 characters (32 random bytes, base64url). */
  ADMIN_TOKEN?: string;
  /** Cloudflare Access: the team's domain (`<team>.cloudflareaccess.com`) and the application's AUD tag. */
  ACCESS_TEAM_DOMAIN?: string;
  ACCESS_AUD?: string;
}
