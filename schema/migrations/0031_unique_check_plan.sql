-- expand
-- C45: the same check as 0028_unique_values.sql's, planned value by value. Written as a join, SQLite
-- read every value the project had claimed for each insert (its index by project only, the sent
-- values scanned inside): a unique form slowed as it grew. Each value sent is now looked up by the
-- whole key (project, field, value). The trigger keeps its name and what it refuses, so the release
-- before reads the same.
DROP TRIGGER IF EXISTS `submissions_unique_check`;--> statement-breakpoint
CREATE TRIGGER `submissions_unique_check` BEFORE INSERT ON `submissions`
WHEN new.`unique_keys` IS NOT NULL AND new.`spam` = 0
BEGIN
	SELECT RAISE(ABORT, 'unique value taken')
	WHERE EXISTS (
		SELECT 1 FROM json_each(new.`unique_keys`) AS k
		WHERE EXISTS (
			SELECT 1 FROM `unique_values` AS u
			WHERE u.`project_id` = new.`project_id`
				AND u.`field` = json_extract(k.`value`, '$[0]') AND u.`value` = json_extract(k.`value`, '$[1]')
				AND (new.`idempotency_key` IS NULL OR NOT EXISTS (
					SELECT 1 FROM `submissions` AS s
					WHERE s.`id` = u.`submission_id` AND s.`idempotency_key` = new.`idempotency_key`
				))
		)
	);
END;
