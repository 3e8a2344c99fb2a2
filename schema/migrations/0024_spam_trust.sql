-- expand: C39's trust in shared evidence (who marked, the operator's counts, features read across projects)
ALTER TABLE `spam_campaigns` ADD `by_operator` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `spam_tokens` ADD `operator_spam` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `spam_tokens_token` ON `spam_tokens` (`token`);--> statement-breakpoint
ALTER TABLE `submissions` ADD `label_operator` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `submissions` ADD `trained_operator` integer DEFAULT false NOT NULL;