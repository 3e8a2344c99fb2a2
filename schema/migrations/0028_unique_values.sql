-- expand
CREATE TABLE `unique_values` (
	`project_id` text NOT NULL,
	`field` text NOT NULL,
	`value` text NOT NULL,
	`submission_id` text NOT NULL,
	PRIMARY KEY(`project_id`, `field`, `value`),
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `unique_values_submission` ON `unique_values` (`submission_id`);--> statement-breakpoint
ALTER TABLE `submissions` ADD `unique_keys` text;--> statement-breakpoint
-- C45: a submission claims its unique fields' values (`unique_keys`, made in the isolate) in its own
-- insert. A value another submission of the project holds refuses the insert, but for a retry of
-- the submission that holds it (its Idempotency-Key: the insert then stores nothing, and the first
-- answer is given again). Honeypot spam claims nothing.
CREATE TRIGGER `submissions_unique_check` BEFORE INSERT ON `submissions`
WHEN new.`unique_keys` IS NOT NULL AND new.`spam` = 0
BEGIN
	SELECT RAISE(ABORT, 'unique value taken')
	WHERE EXISTS (
		SELECT 1 FROM json_each(new.`unique_keys`) AS k
		JOIN `unique_values` AS u ON u.`project_id` = new.`project_id`
			AND u.`field` = json_extract(k.`value`, '$[0]') AND u.`value` = json_extract(k.`value`, '$[1]')
		WHERE new.`idempotency_key` IS NULL OR NOT EXISTS (
			SELECT 1 FROM `submissions` AS s
			WHERE s.`id` = u.`submission_id` AND s.`idempotency_key` = new.`idempotency_key`
		)
	);
END;
--> statement-breakpoint
CREATE TRIGGER `submissions_unique_claim` AFTER INSERT ON `submissions`
WHEN new.`unique_keys` IS NOT NULL AND new.`spam` = 0
BEGIN
	INSERT INTO `unique_values` (`project_id`, `field`, `value`, `submission_id`)
	SELECT new.`project_id`, json_extract(k.`value`, '$[0]'), json_extract(k.`value`, '$[1]'), new.`id`
	FROM json_each(new.`unique_keys`) AS k;
END;
--> statement-breakpoint
-- C45: a submission marked spam (by its owner or the filter) frees its values; marked not spam
-- again, it takes back those no other submission took meanwhile.
CREATE TRIGGER `submissions_unique_spam` AFTER UPDATE OF `spam` ON `submissions`
WHEN new.`spam` = 1 AND old.`spam` = 0
BEGIN
	DELETE FROM `unique_values` WHERE `submission_id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `submissions_unique_ham` AFTER UPDATE OF `spam` ON `submissions`
WHEN new.`spam` = 0 AND old.`spam` = 1 AND new.`unique_keys` IS NOT NULL
BEGIN
	INSERT OR IGNORE INTO `unique_values` (`project_id`, `field`, `value`, `submission_id`)
	SELECT new.`project_id`, json_extract(k.`value`, '$[0]'), json_extract(k.`value`, '$[1]'), new.`id`
	FROM json_each(new.`unique_keys`) AS k;
END;