// C39: what the spam filter learns across a deployment's place (each place's D1 its own: nothing
// of a project leaves its place, C41): the counts of features its projects' owners marked, and the
// campaigns they marked in the last days. Counts and signatures only, never text.
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { submissions } from './submissions.ts';

// The deployment's counts of each feature among the marks of the projects that give to it.
export const spamSharedTokens = sqliteTable('spam_shared_tokens', {
  token: text('token').primaryKey(),
  ham: integer('ham').notNull().default(0),
  spam: integer('spam').notNull().default(0),
});

// How many marks the deployment's counts hold, each way: one row (id 1).
export const spamSharedTotals = sqliteTable('spam_shared_totals', {
  id: integer('id').primaryKey(),
  ham: integer('ham').notNull().default(0),
  spam: integer('spam').notNull().default(0),
});

// A marked submission's MinHash signature (spam/campaign.ts), for CAMPAIGN_DAYS: gone with its
// submission (erasure, retention, deletion), and bounded (src/store/campaigns.ts).
export const spamCampaigns = sqliteTable(
  'spam_campaigns',
  {
    submissionId: text('submission_id')
      .primaryKey()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    projectId: text('project_id').notNull(),
    label: text('label', { enum: ['spam', 'ham'] }).notNull(),
    // Its project gave to the deployment when it was marked: other projects that take see it.
    shared: integer('shared', { mode: 'boolean' }).notNull(),
    // C39: the operator marked it: it holds its copies in every project that takes.
    byOperator: integer('by_operator', { mode: 'boolean' }).notNull().default(false),
    signature: text('signature').notNull(),
    markedAt: text('marked_at').notNull(),
  },
  (t) => [
    index('spam_campaigns_marked_at').on(t.markedAt),
    index('spam_campaigns_project').on(t.projectId, t.markedAt),
  ],
);

// The signature's band keys: a message sharing one with a marked message is compared with it.
export const spamCampaignBands = sqliteTable(
  'spam_campaign_bands',
  {
    band: text('band').notNull(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => spamCampaigns.submissionId, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.band, t.submissionId] }),
    index('spam_campaign_bands_submission').on(t.submissionId),
  ],
);

// C39: the widget tokens and proofs of work that stored submissions carried, each owned by the
// first submission that carried it, kept until it expires (the sweep deletes it then): a second
// submission with the same one is spam. Only a digest of the nonce, never the token itself.
export const spamNonces = sqliteTable(
  'spam_nonces',
  {
    nonce: text('nonce').primaryKey(),
    submissionId: text('submission_id').notNull(),
    expiresAt: text('expires_at').notNull(),
  },
  (t) => [index('spam_nonces_expires_at').on(t.expiresAt)],
);
