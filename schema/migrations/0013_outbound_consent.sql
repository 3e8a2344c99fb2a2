-- contract: history (written before the first release and before the two-release rule, C42)
CREATE TABLE `mail_counts` (
	`scope` text NOT NULL,
	`day` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`scope`, `day`)
);
--> statement-breakpoint
DROP TABLE `confirmation_counts`;--> statement-breakpoint
ALTER TABLE `sessions` ADD `recheck_at` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `challenge` text;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `verify_hash` text;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `verify_until` text;--> statement-breakpoint
CREATE UNIQUE INDEX `webhooks_verify` ON `webhooks` (`verify_hash`);--> statement-breakpoint
-- C37: an address that a project's key added never agreed to receive anything: it waits for its
-- owner's agreement like a new one (removed and added again, it is sent the verification mail).
UPDATE `webhooks` SET `disabled_at` = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), `disabled_reason` = 'unverified'
WHERE `kind` = 'email' AND `disabled_at` IS NULL AND `id` IN (
  SELECT json_extract(`detail`, '$.notificationId') FROM `audit_log`
  WHERE `action` = 'notification.add' AND `actor` LIKE 'key:%'
);
