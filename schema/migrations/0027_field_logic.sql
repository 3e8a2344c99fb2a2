-- expand
ALTER TABLE `fields` ADD `when_condition` text;--> statement-breakpoint
ALTER TABLE `fields` ADD `capture` text;