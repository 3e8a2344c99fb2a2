-- expand
CREATE TABLE `spam_nonces` (
	`nonce` text PRIMARY KEY NOT NULL,
	`submission_id` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `spam_nonces_expires_at` ON `spam_nonces` (`expires_at`);--> statement-breakpoint
ALTER TABLE `projects` ADD `spam_require_widget` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `projects` ADD `spam_proof_of_work` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `projects` ADD `spam_countries` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `spam_languages` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `signals` text;