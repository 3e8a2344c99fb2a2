-- expand
CREATE TABLE `file_deletions` (
	`prefix` text PRIMARY KEY NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_fields` (
	`project_id` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`required` integer DEFAULT false NOT NULL,
	`position` integer NOT NULL,
	`rules` text,
	PRIMARY KEY(`project_id`, `name`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "fields_type" CHECK("type" in ('string', 'integer', 'number', 'boolean', 'file'))
);
--> statement-breakpoint
INSERT INTO `__new_fields`("project_id", "name", "type", "required", "position", "rules") SELECT "project_id", "name", "type", "required", "position", "rules" FROM `fields`;--> statement-breakpoint
DROP TABLE `fields`;--> statement-breakpoint
ALTER TABLE `__new_fields` RENAME TO `fields`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
ALTER TABLE `projects` ADD `form_id` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `thank_you_url` text;--> statement-breakpoint
CREATE UNIQUE INDEX `projects_form_id` ON `projects` (`form_id`);--> statement-breakpoint
ALTER TABLE `submissions` ADD `files` text;--> statement-breakpoint
UPDATE `projects` SET `form_id` = 'f_' || lower(hex(randomblob(8))) WHERE `form_id` IS NULL;--> statement-breakpoint
CREATE TRIGGER `submissions_files_deleted` AFTER DELETE ON `submissions` WHEN old.`files` IS NOT NULL
BEGIN
	INSERT OR IGNORE INTO `file_deletions` (`prefix`, `created_at`) VALUES (old.`project_id` || '/' || old.`id` || '/', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
