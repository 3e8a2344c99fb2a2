-- expand
CREATE TABLE `project_fence` (
	`project_id` text NOT NULL
);
--> statement-breakpoint
-- C41: a request that found its project's place in a cache (a key's), or that changes a project,
-- sends this row first in the same batch as its statements. The trigger aborts the batch unless the
-- project lives in this database and is not being moved (its writes would be lost with the source
-- copy, or would make the copy differ); otherwise it drops the row, so the table stays empty.
CREATE TRIGGER `project_fence_settled` BEFORE INSERT ON `project_fence`
BEGIN
	SELECT RAISE(ABORT, 'project not settled in this place')
	WHERE NOT EXISTS (SELECT 1 FROM `projects` WHERE `id` = new.`project_id` AND `moving_since` IS NULL);
	SELECT RAISE(IGNORE);
END;
