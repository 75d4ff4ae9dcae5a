-- Tenant isolation in the database. Every tenant table has row-level security enabled
-- AND forced (so even the owning user is subject to it), with exactly two policies:
-- herald_tenant sees its own tenant's rows; herald_operator sees all. Any other role,
-- the connecting user included, gets no policy and so no rows.

ALTER TABLE tenants ENABLE ROW LEVEL SECURITY;
ALTER TABLE tenants FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON tenants TO herald_tenant
    USING (id = herald_current_tenant());
CREATE POLICY operator_access ON tenants TO herald_operator
    USING (true) WITH CHECK (true);
GRANT SELECT ON tenants TO herald_tenant;
GRANT SELECT, INSERT, UPDATE ON tenants TO herald_operator;

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['apps', 'campaigns', 'alert_message_keys', 'campaign_conditions',
                             'banner_contents', 'banner_views', 'alert_contents', 'story_contents',
                             'story_pages', 'audit_log']
    LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant_isolation ON %I TO herald_tenant
                        USING (tenant_id = herald_current_tenant())
                        WITH CHECK (tenant_id = herald_current_tenant())', t);
        EXECUTE format('CREATE POLICY operator_access ON %I TO herald_operator
                        USING (true) WITH CHECK (true)', t);
    END LOOP;
END
$$;

-- Privileges: what each role may do at all (RLS then narrows the rows).
GRANT SELECT, INSERT, UPDATE ON apps, campaigns TO herald_tenant, herald_operator;
GRANT SELECT, INSERT ON alert_message_keys, audit_log TO herald_tenant, herald_operator;
GRANT SELECT, INSERT, UPDATE, DELETE ON campaign_conditions, banner_contents, banner_views,
    alert_contents, story_contents, story_pages TO herald_tenant, herald_operator;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO herald_tenant, herald_operator;
