-- expand
ALTER TABLE `deliveries` ADD `lease_until` text;--> statement-breakpoint
CREATE INDEX `deliveries_due` ON `deliveries` (`next_attempt_at`) WHERE "deliveries"."status" = 'pending';--> statement-breakpoint
ALTER TABLE `webhooks` ADD `disabled_reason` text;--> statement-breakpoint
UPDATE `webhooks` SET `disabled_reason` = 'gone' WHERE `disabled_at` IS NOT NULL;
