-- expand
ALTER TABLE `fields` ADD `label` text;--> statement-breakpoint
ALTER TABLE `fields` ADD `help` text;--> statement-breakpoint
ALTER TABLE `fields` ADD `placeholder` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `page_enabled` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `projects` ADD `page_languages` text DEFAULT '["en"]' NOT NULL;--> statement-breakpoint
ALTER TABLE `projects` ADD `page_title` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `page_intro` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `page_thanks` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `page_accent` text DEFAULT '#1f5fbf' NOT NULL;--> statement-breakpoint
ALTER TABLE `projects` ADD `page_theme` text DEFAULT 'auto' NOT NULL;--> statement-breakpoint
ALTER TABLE `projects` ADD `page_logo` text;--> statement-breakpoint
CREATE TRIGGER `projects_logo_deleted` AFTER DELETE ON `projects` WHEN old.`page_logo` IS NOT NULL
BEGIN
	INSERT OR IGNORE INTO `file_deletions` (`prefix`, `created_at`) VALUES (old.`id` || '/page/', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;--> statement-breakpoint
CREATE TRIGGER `projects_logo_stored` AFTER INSERT ON `projects` WHEN new.`page_logo` IS NOT NULL
BEGIN
	DELETE FROM `file_deletions` WHERE `prefix` = new.`id` || '/page/';
END;
