-- expand
ALTER TABLE `file_deletions` ADD `not_before` text;--> statement-breakpoint
CREATE TRIGGER `submissions_files_stored` AFTER INSERT ON `submissions` WHEN new.`files` IS NOT NULL
BEGIN
	DELETE FROM `file_deletions` WHERE `prefix` = new.`project_id` || '/' || new.`id` || '/';
END;
