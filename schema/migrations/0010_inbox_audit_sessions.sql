-- expand
CREATE TABLE `audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text,
	`at` text NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`detail` text
);
--> statement-breakpoint
CREATE INDEX `audit_log_project` ON `audit_log` (`project_id`,`id`);--> statement-breakpoint
CREATE TABLE `search_terms` (
	`project_id` text NOT NULL,
	`term` text NOT NULL,
	`submission_id` text NOT NULL,
	PRIMARY KEY(`project_id`, `term`, `submission_id`),
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `search_terms_submission` ON `search_terms` (`submission_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`actor` text NOT NULL,
	`project_id` text,
	`key_hash` text,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `submissions` ADD `read_at` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `starred` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `submissions` ADD `search_pending` integer DEFAULT 1;--> statement-breakpoint
CREATE INDEX `submissions_search_pending` ON `submissions` (`received_at`) WHERE "submissions"."search_pending" is not null;