-- expand: C42: what the releases before 0019_targets read and write, beside what replaced it.
-- `npm run deploy` migrates before it uploads, so a release from before 0019 serves on this schema
-- until the new code is up (for good, should the upload fail). It reads and writes `webhooks` and
-- `deliveries.webhook_id`: a view of `targets` that writes through, and a column that the older
-- release's inserts fill (its rows go in with `target_id` taken from it). Removed by a contract
-- step once no supported release reads them.
CREATE VIEW `webhooks` AS SELECT `id`, `project_id`, `url`, `secret`, `previous_secret`, `previous_until`, `disabled_at`, `created_at`, `kind`, `disabled_reason`, `verify_hash`, `verify_until`, `config` FROM `targets`;--> statement-breakpoint
CREATE TRIGGER `webhooks_insert` INSTEAD OF INSERT ON `webhooks` BEGIN
  INSERT INTO `targets` (`id`, `project_id`, `url`, `secret`, `previous_secret`, `previous_until`, `disabled_at`, `created_at`, `kind`, `disabled_reason`, `verify_hash`, `verify_until`, `config`)
  VALUES (NEW.`id`, NEW.`project_id`, NEW.`url`, NEW.`secret`, NEW.`previous_secret`, NEW.`previous_until`, NEW.`disabled_at`, NEW.`created_at`, coalesce(NEW.`kind`, 'webhook'), NEW.`disabled_reason`, NEW.`verify_hash`, NEW.`verify_until`, NEW.`config`);
END;--> statement-breakpoint
CREATE TRIGGER `webhooks_update` INSTEAD OF UPDATE ON `webhooks` BEGIN
  UPDATE `targets` SET `project_id` = NEW.`project_id`, `url` = NEW.`url`, `secret` = NEW.`secret`, `previous_secret` = NEW.`previous_secret`, `previous_until` = NEW.`previous_until`, `disabled_at` = NEW.`disabled_at`, `created_at` = NEW.`created_at`, `kind` = NEW.`kind`, `disabled_reason` = NEW.`disabled_reason`, `verify_hash` = NEW.`verify_hash`, `verify_until` = NEW.`verify_until`, `config` = NEW.`config` WHERE `id` = OLD.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `webhooks_delete` INSTEAD OF DELETE ON `webhooks` BEGIN
  DELETE FROM `targets` WHERE `id` = OLD.`id`;
END;--> statement-breakpoint
ALTER TABLE `deliveries` ADD `webhook_id` text;--> statement-breakpoint
UPDATE `deliveries` SET `webhook_id` = `target_id`;--> statement-breakpoint
-- The older release's insert names `webhook_id` alone, which `target_id`'s NOT NULL refuses: the row
-- goes in again with both, and the first is ignored. Its `returning` then lists none, so its queue
-- is not told at once: the minute's sweep sends those deliveries.
CREATE TRIGGER `deliveries_from_webhook_id` BEFORE INSERT ON `deliveries` WHEN NEW.`target_id` IS NULL BEGIN
  INSERT INTO `deliveries` (`id`, `submission_id`, `target_id`, `webhook_id`, `project_id`, `status`, `attempts`, `last_status`, `last_error`, `next_attempt_at`, `lease_until`, `created_at`, `updated_at`)
  VALUES (NEW.`id`, NEW.`submission_id`, NEW.`webhook_id`, NEW.`webhook_id`, NEW.`project_id`, NEW.`status`, NEW.`attempts`, NEW.`last_status`, NEW.`last_error`, NEW.`next_attempt_at`, NEW.`lease_until`, NEW.`created_at`, NEW.`updated_at`)
  ON CONFLICT DO NOTHING;
  SELECT RAISE(IGNORE);
END;
