-- The settings of a session and its units of work (HeraldDatabase): who acts, for the audit
-- log, and the tenant row-level security confines a transaction to. (The role is set as
-- a setting, so it is a parameter too.)

-- name: enter-role
-- A unit of work's tenant (`herald.tenant_id`, '' for none) and role, for the rest of the
-- transaction, in one round trip: set_config('role', r, true) is what SET LOCAL ROLE r does
-- (the same membership check, the same errors), with the role as a parameter. Who acts (the
-- audit log's actor) is a setting of the session, given when it connects.
SELECT set_config('herald.tenant_id', :tenant_id, true), set_config('role', :role, true);
