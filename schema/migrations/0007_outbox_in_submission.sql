-- expand
ALTER TABLE `submissions` ADD `outbox` integer;--> statement-breakpoint
CREATE INDEX `submissions_outbox` ON `submissions` (`received_at`) WHERE "submissions"."outbox" is not null;