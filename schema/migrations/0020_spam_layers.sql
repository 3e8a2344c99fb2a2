-- expand
CREATE TABLE `spam_campaign_bands` (
	`band` text NOT NULL,
	`submission_id` text NOT NULL,
	PRIMARY KEY(`band`, `submission_id`),
	FOREIGN KEY (`submission_id`) REFERENCES `spam_campaigns`(`submission_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `spam_campaign_bands_submission` ON `spam_campaign_bands` (`submission_id`);--> statement-breakpoint
CREATE TABLE `spam_campaigns` (
	`submission_id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`label` text NOT NULL,
	`shared` integer NOT NULL,
	`signature` text NOT NULL,
	`marked_at` text NOT NULL,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `spam_campaigns_marked_at` ON `spam_campaigns` (`marked_at`);--> statement-breakpoint
CREATE INDEX `spam_campaigns_project` ON `spam_campaigns` (`project_id`,`marked_at`);--> statement-breakpoint
CREATE TABLE `spam_shared_tokens` (
	`token` text PRIMARY KEY NOT NULL,
	`ham` integer DEFAULT 0 NOT NULL,
	`spam` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `spam_shared_totals` (
	`id` integer PRIMARY KEY NOT NULL,
	`ham` integer DEFAULT 0 NOT NULL,
	`spam` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE `projects` ADD `spam_sharing` text DEFAULT 'both' NOT NULL;--> statement-breakpoint
ALTER TABLE `submissions` ADD `shared` integer DEFAULT false NOT NULL;--> statement-breakpoint
INSERT INTO `spam_shared_totals` (`id`, `ham`, `spam`) VALUES (1, 0, 0);--> statement-breakpoint
UPDATE `projects` SET `spam_threshold` = 0.78 WHERE `spam_threshold` = 0.5;
