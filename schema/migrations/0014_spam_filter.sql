-- expand
CREATE TABLE `spam_tokens` (
	`project_id` text NOT NULL,
	`token` text NOT NULL,
	`ham` integer DEFAULT 0 NOT NULL,
	`spam` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`project_id`, `token`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `projects` ADD `spam_mode` text DEFAULT 'hold' NOT NULL;--> statement-breakpoint
ALTER TABLE `projects` ADD `spam_threshold` real DEFAULT 0.5 NOT NULL;--> statement-breakpoint
ALTER TABLE `projects` ADD `spam_allow` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `spam_block` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `learned_ham` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `projects` ADD `learned_spam` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `submissions` ADD `verdict` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `spam_score` real;--> statement-breakpoint
ALTER TABLE `submissions` ADD `spam_reason` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `content_hash` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `label` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `trained` text;--> statement-breakpoint
-- C39: submissions stored before the filter were not judged by it, and are not judged now.
UPDATE `submissions` SET `verdict` = 'none';--> statement-breakpoint
CREATE INDEX `submissions_unjudged` ON `submissions` (`received_at`) WHERE "submissions"."verdict" is null;--> statement-breakpoint
CREATE INDEX `submissions_untrained` ON `submissions` (`received_at`) WHERE coalesce("submissions"."label", '') <> coalesce("submissions"."trained", '');--> statement-breakpoint
CREATE INDEX `submissions_content` ON `submissions` (`project_id`,`content_hash`) WHERE "submissions"."content_hash" is not null;