-- expand
CREATE TABLE `directory` (
	`lookup` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`place` text NOT NULL,
	`moving_to` text
);
--> statement-breakpoint
CREATE INDEX `directory_project` ON `directory` (`project_id`);--> statement-breakpoint
ALTER TABLE `projects` ADD `moving_since` text;--> statement-breakpoint
-- C41: while its project is being moved to another place, a submission is refused here (the
-- worker answers 503 with Retry-After; its Idempotency-Key makes the retry safe), so that the copy
-- misses none. In the same statement as the insert: no extra round trip on the submission path.
CREATE TRIGGER `submissions_project_moving` BEFORE INSERT ON `submissions`
WHEN (SELECT `moving_since` FROM `projects` WHERE `id` = new.`project_id`) IS NOT NULL
BEGIN
	SELECT RAISE(ABORT, 'project moving to another place');
END;
