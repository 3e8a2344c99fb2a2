-- expand
-- C46: partial submissions: the drafts of a hosted page in steps, a project's days to keep them
-- (NULL: off), and the draft a submission was sent from. A release before it saves no draft.
CREATE TABLE `drafts` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`data` text NOT NULL,
	`step` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `drafts_token` ON `drafts` (`token_hash`);--> statement-breakpoint
CREATE INDEX `drafts_project` ON `drafts` (`project_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `drafts_expiry` ON `drafts` (`expires_at`);--> statement-breakpoint
ALTER TABLE `projects` ADD `partials_keep_days` integer;--> statement-breakpoint
ALTER TABLE `submissions` ADD `draft_hash` text;--> statement-breakpoint
-- C46: a form sent from a draft leaves no draft: deleted in the submission's own insert (its
-- project's alone, so that a token never reaches another project's draft). A replay (C20) inserts
-- nothing, and deletes nothing more.
CREATE TRIGGER `submissions_draft_sent` AFTER INSERT ON `submissions`
WHEN new.`draft_hash` IS NOT NULL
BEGIN
	DELETE FROM `drafts` WHERE `token_hash` = new.`draft_hash` AND `project_id` = new.`project_id`;
END;
