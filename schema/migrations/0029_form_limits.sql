-- expand
ALTER TABLE `projects` ADD `max_submissions` integer;--> statement-breakpoint
ALTER TABLE `projects` ADD `opens_at` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `closes_at` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `closed_text` text;--> statement-breakpoint
-- C45: a form that takes at most max_submissions accepted submissions (spam is not counted, so a
-- submission marked spam frees its place) refuses one more in its own insert: the accepted path
-- stays one round trip, and of posts at the same moment no more are stored than places are left.
-- A retry with the Idempotency-Key of a stored submission is its replay (C20), never refused.
CREATE TRIGGER `submissions_form_full` BEFORE INSERT ON `submissions`
WHEN new.`spam` = 0
BEGIN
	SELECT RAISE(ABORT, 'form full')
	WHERE (SELECT `max_submissions` FROM `projects` WHERE `id` = new.`project_id`) IS NOT NULL
		AND (new.`idempotency_key` IS NULL OR NOT EXISTS (
			SELECT 1 FROM `submissions` WHERE `project_id` = new.`project_id` AND `idempotency_key` = new.`idempotency_key`
		))
		AND (SELECT count(*) FROM `submissions` WHERE `project_id` = new.`project_id` AND `spam` = 0)
			>= (SELECT `max_submissions` FROM `projects` WHERE `id` = new.`project_id`);
END;