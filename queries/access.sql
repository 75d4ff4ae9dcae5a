-- Who the connected login is (HeraldLogin), and tenants' operator logins (OperatorAccess):
-- the database functions of 0016 do the work (checked names, quoted identifiers, roles Herald
-- did not make left alone); these are their typed front.

-- name: session-login
SELECT session_user::text AS login;

-- name: herald-login
-- Before the migrations that know logins there is no herald_login() (undefined_function):
-- whoever connects is then the owner migrating (session-login).
SELECT login, kind, tenant_id, tenant FROM herald_login();

-- name: grant-operator
-- :password is the SCRAM verifier made on the client's side, or NULL; 'created' or 'updated'.
SELECT herald_grant_operator(:role, :tenant_id, :password) AS outcome;

-- name: revoke-operator
SELECT herald_revoke_operator(:role, :tenant_id) AS done;

-- name: tenant-operators
SELECT role_name::text AS role, granted_at FROM operator_grants WHERE tenant_id = :tenant_id ORDER BY 1;
