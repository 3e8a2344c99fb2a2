-- contract: history (written before the first release and before the two-release rule, C42)
-- The table of a project's delivery targets holds every kind (webhooks, addresses, chats, the
-- confirmation, integrations): named for what it holds, as is the deliveries' column that points
-- at it. SQLite's rename carries the rows, the foreign key from deliveries and every index along.
ALTER TABLE `webhooks` RENAME TO `targets`;--> statement-breakpoint
ALTER TABLE `deliveries` RENAME COLUMN `webhook_id` TO `target_id`;--> statement-breakpoint
DROP INDEX `webhooks_project`;--> statement-breakpoint
CREATE INDEX `targets_project` ON `targets` (`project_id`);--> statement-breakpoint
DROP INDEX `webhooks_verify`;--> statement-breakpoint
CREATE UNIQUE INDEX `targets_verify` ON `targets` (`verify_hash`);--> statement-breakpoint
DROP INDEX `deliveries_webhook`;--> statement-breakpoint
CREATE INDEX `deliveries_target` ON `deliveries` (`target_id`);
