-- expand
CREATE TABLE `analytics_days` (
	`project_id` text NOT NULL,
	`day` text NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	`starts` integer DEFAULT 0 NOT NULL,
	`timed` integer DEFAULT 0 NOT NULL,
	`median_submit_ms` integer,
	PRIMARY KEY(`project_id`, `day`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `analytics_drop_off` (
	`project_id` text NOT NULL,
	`day` text NOT NULL,
	`field` text NOT NULL,
	`visitors` integer DEFAULT 0 NOT NULL,
	`total_ms` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`project_id`, `day`, `field`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `analytics_salts` (
	`day` text PRIMARY KEY NOT NULL,
	`salt` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `analytics_visitors` (
	`project_id` text NOT NULL,
	`day` text NOT NULL,
	`visitor` text NOT NULL,
	`viewed` integer DEFAULT 0 NOT NULL,
	`started` integer DEFAULT 0 NOT NULL,
	`submitted` integer DEFAULT 0 NOT NULL,
	`submit_ms` integer,
	`left_field` text,
	`left_ms` integer,
	PRIMARY KEY(`project_id`, `day`, `visitor`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
