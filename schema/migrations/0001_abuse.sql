-- expand
ALTER TABLE `projects` ADD `honeypot` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `turnstile_secret` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `spam` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `submissions` ADD `idempotency_key` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `body_hash` text;--> statement-breakpoint
CREATE UNIQUE INDEX `submissions_idempotency_key` ON `submissions` (`project_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `submissions_idempotency_age` ON `submissions` (`received_at`) WHERE "submissions"."idempotency_key" is not null;