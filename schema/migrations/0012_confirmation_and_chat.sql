-- expand
CREATE TABLE `confirmation_counts` (
	`address_hash` text NOT NULL,
	`day` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`address_hash`, `day`)
);
--> statement-breakpoint
ALTER TABLE `projects` ADD `confirm_field` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `confirm_subject` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `confirm_body` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `confirm_reply_to` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `confirm_open` integer DEFAULT false NOT NULL;