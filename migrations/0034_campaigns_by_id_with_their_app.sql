-- A campaign found by its id alone, with its tenant and app, read from the index without the
-- table: `apps-edited-since` (queries/publishing.sql) maps each changed content or condition
-- row of the audit log to its campaign's app. Under row security the other indexes that hold
-- the id lead with the tenant, so each lookup read every index entry of the tenant's campaigns
-- (about 5 ms a changed row at 20,000 campaigns, most of a one-edit publish's query time).
CREATE INDEX campaigns_id_with_app_idx ON campaigns (id) INCLUDE (tenant_id, app_id);
