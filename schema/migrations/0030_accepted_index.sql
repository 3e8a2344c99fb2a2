-- expand
-- C45: a project's accepted submissions are counted from this index alone, by a form's limit
-- (the insert's trigger) and its hosted page: no more entries read than the form has places.
CREATE INDEX `submissions_accepted` ON `submissions` (`project_id`) WHERE "submissions"."spam" = 0;