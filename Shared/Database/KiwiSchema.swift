/// Kiwi's PostgreSQL schema (docs/architecture.md, "1. System overview"), as the migrations that build it. Each table
/// has one owner, the only service that migrates it (docs/architecture.md, "Data and migrations"): the auth service
/// `users` and `sessions`, the gateway `scan_usage` and `scans` (whose outcome columns the scan worker writes).
/// Versions are unique across owners and recorded in one `schema_migrations` table. Append; never edit a migration
/// that has shipped.
public enum KiwiSchema {
    /// The auth service's migrations, oldest first.
    public static let auth: [Migration] = [usersAndSessions, retireScanQuota]
    /// The gateway's migrations, oldest first.
    public static let gateway: [Migration] = [
        scanUsage, scanLedger, scanOutcomes, savedRecipes, sharedRecipes, modelSpend, profiles, reservationFunction,
        modelSpendParts, scanPartials, refinements, photoKeys, kitchen, foods, singleRowReservation,
        partialRows, lz4Compression, foodTableVersion, households, sharedKitchen, shoppingQuantities, mealPlans, planCalendars,
        mealRecipes, receiptScans, pantryReceipts, writtenOutKeys, devices, notificationsSent,
    ]
    /// Every owner's migrations in version order: the whole schema, for tests and tools that need all of it.
    public static let migrations: [Migration] = (auth + gateway).sorted { $0.version < $1.version }

    /// Version 1, from before tables had owners: it also made the gateway's first table, `scan_quota`, which
    /// ``retireScanQuota`` drops again for the auth service.
    static let usersAndSessions =
        Migration(
            version: 1,
            name: "create users, sessions and scan quota",
            statements: [
                """
                CREATE TABLE users (
                    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
                    apple_user_id text NOT NULL UNIQUE,
                    email text NULL,
                    created_at timestamptz NOT NULL DEFAULT now(),
                    updated_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                """
                CREATE TABLE sessions (
                    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
                    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    token_hash bytea NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
                    expires_at timestamptz NOT NULL,
                    created_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                "CREATE INDEX sessions_user_id_idx ON sessions (user_id)",
                "CREATE INDEX sessions_expires_at_idx ON sessions (expires_at)",
                """
                CREATE TABLE scan_quota (
                    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    scan_date date NOT NULL,
                    scan_count integer NOT NULL DEFAULT 0 CHECK (scan_count >= 0),
                    PRIMARY KEY (user_id, scan_date)
                )
                """,
            ]
        )

    static let scanUsage =
        Migration(
            version: 2,
            name: "count scans per person, not per account row",
            statements: [
                // A day's usage is keyed by a keyed hash of the Apple `sub` (HMAC-SHA256 with QUOTA_KEY_SECRET, made by
                // the auth service), not by the user row: deleting the account and signing up again must not reset
                // the day's quota. No foreign key, so the row outlives the account; the gateway deletes rows of past
                // days (docs/architecture.md, "What is kept after an account is deleted"). Today's counts in
                // scan_quota cannot be carried over (the key needs the secret), so the day of this upgrade starts
                // from zero.
                """
                CREATE TABLE scan_usage (
                    quota_key bytea NOT NULL CHECK (octet_length(quota_key) = 32),
                    scan_date date NOT NULL,
                    scan_count integer NOT NULL DEFAULT 0 CHECK (scan_count >= 0),
                    PRIMARY KEY (quota_key, scan_date)
                )
                """,
                "DROP TABLE IF EXISTS scan_quota",
            ]
        )

    /// One row per scan (docs/architecture.md, "4. The quota strategy"): its state, the SHA-256 of its photo (never the
    /// photo), its idempotency key and, once it succeeded, its validated answer. A person's usage of a day is their
    /// scans that are not `failed`, plus what `scan_usage` now keeps: charges from before the ledger, and those of
    /// deleted accounts (keyed by the person, so signing up again does not reset the day). No foreign key to `users`:
    /// the gateway deletes a user's scans itself when the account goes.
    static let scanLedger =
        Migration(
            version: 4,
            name: "keep a record of every scan",
            statements: [
                """
                CREATE TABLE scans (
                    id uuid PRIMARY KEY,
                    user_id uuid NOT NULL,
                    quota_key bytea NOT NULL CHECK (octet_length(quota_key) = 32),
                    scan_date date NOT NULL,
                    state text NOT NULL CHECK (state IN ('queued', 'running', 'succeeded', 'failed')),
                    error_code text CHECK ((state = 'failed') = (error_code IS NOT NULL)),
                    idempotency_key text,
                    photo_sha256 bytea NOT NULL CHECK (octet_length(photo_sha256) = 32),
                    deadline timestamptz NOT NULL,
                    created_at timestamptz NOT NULL DEFAULT now(),
                    updated_at timestamptz NOT NULL DEFAULT now(),
                    result jsonb CHECK (result IS NULL OR state = 'succeeded')
                )
                """,
                "CREATE UNIQUE INDEX scans_idempotency_key ON scans (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL",
                "CREATE INDEX scans_charges ON scans (quota_key, scan_date) WHERE state <> 'failed'",
                "CREATE INDEX scans_by_user ON scans (user_id, created_at DESC)",
                "CREATE INDEX scans_open ON scans (deadline) WHERE state IN ('queued', 'running')",
            ]
        )

    /// What the scan worker records with a scan's outcome, now that it writes the outcome itself: the message of a
    /// failure (for the client, never the photo or the model's answer) and what the model cost (model, tokens,
    /// attempts, and the model's own time for `Server-Timing`). NULL until the model was asked.
    static let scanOutcomes =
        Migration(
            version: 5,
            name: "record what a scan's model call cost",
            statements: [
                """
                ALTER TABLE scans
                    ADD COLUMN error_message text,
                    ADD COLUMN model text,
                    ADD COLUMN prompt_tokens integer CHECK (prompt_tokens >= 0),
                    ADD COLUMN completion_tokens integer CHECK (completion_tokens >= 0),
                    ADD COLUMN attempts integer CHECK (attempts >= 0),
                    ADD COLUMN model_ms integer CHECK (model_ms >= 0)
                """
            ]
        )

    /// The recipes users keep (`/v1/recipes`): a copy of the recipe and of the detected ingredients it uses, taken out
    /// of the scan, so it outlives the scan's retention. `search` is the lower-cased text `?q=` looks in (the recipe's
    /// name and ingredients). One copy per recipe of a scan; no foreign key to `users`: the gateway deletes a user's
    /// recipes itself when the account goes, as it does their scans.
    static let savedRecipes =
        Migration(
            version: 6,
            name: "keep saved recipes",
            statements: [
                """
                CREATE TABLE saved_recipes (
                    id uuid PRIMARY KEY,
                    user_id uuid NOT NULL,
                    scan_id uuid NOT NULL,
                    recipe_id uuid NOT NULL,
                    recipe jsonb NOT NULL,
                    detected_ingredients jsonb NOT NULL,
                    search text NOT NULL,
                    note text CHECK (char_length(note) <= 1000),
                    rating smallint CHECK (rating BETWEEN 1 AND 5),
                    created_at timestamptz NOT NULL DEFAULT now(),
                    updated_at timestamptz NOT NULL DEFAULT now(),
                    UNIQUE (user_id, scan_id, recipe_id)
                )
                """,
                "CREATE INDEX saved_recipes_user_created_idx ON saved_recipes (user_id, created_at DESC, id DESC)",
            ]
        )

    /// A saved recipe's public page (`/r/{token}`): the link's token while it is shared. The token is kept as it is,
    /// not hashed, so that sharing again gives the same link: it opens only the page, which holds no user data.
    static let sharedRecipes =
        Migration(
            version: 7,
            name: "share saved recipes",
            statements: [
                """
                ALTER TABLE saved_recipes
                    ADD COLUMN share_token text UNIQUE CHECK (char_length(share_token) >= 22),
                    ADD COLUMN shared_at timestamptz
                """
            ]
        )

    /// What the model costs (docs/architecture.md, "Spend and model routes"): on each scan, the route that answered, the cached part of
    /// its prompt tokens, the cost in nano-dollars, and for `llm_unavailable` when to try again; per person and day,
    /// the tokens spent (`scan_usage.tokens`, for `LLM_USER_DAILY_TOKENS`); per UTC day, everyone's spend
    /// (`model_spend`, for `LLM_DAILY_BUDGET_USD`), which holds no user data.
    static let modelSpend =
        Migration(
            version: 8,
            name: "count what the model costs",
            statements: [
                """
                ALTER TABLE scans
                    ADD COLUMN route text,
                    ADD COLUMN cached_prompt_tokens integer CHECK (cached_prompt_tokens >= 0),
                    ADD COLUMN cost_nanousd bigint CHECK (cost_nanousd >= 0),
                    ADD COLUMN retry_after_seconds integer CHECK (retry_after_seconds >= 0)
                """,
                "ALTER TABLE scan_usage ADD COLUMN tokens bigint NOT NULL DEFAULT 0 CHECK (tokens >= 0)",
                """
                CREATE TABLE model_spend (
                    spend_date date PRIMARY KEY,
                    cost_nanousd bigint NOT NULL CHECK (cost_nanousd >= 0),
                    tokens bigint NOT NULL CHECK (tokens >= 0)
                )
                """,
            ]
        )

    /// Each user's kitchen profile (`/v1/profile`): the document as the API's JSON. No foreign key to `users`: the
    /// gateway deletes it itself when the account goes, as it does their scans and recipes.
    static let profiles =
        Migration(
            version: 9,
            name: "keep kitchen profiles",
            statements: [
                """
                CREATE TABLE profiles (
                    user_id uuid PRIMARY KEY,
                    profile jsonb NOT NULL,
                    updated_at timestamptz NOT NULL DEFAULT now()
                )
                """
            ]
        )

    /// A scan's reservation in one statement (docs/decisions.md, "A scan's round trips"): `kiwi_reserve_scan` takes
    /// the person's advisory lock, replays an earlier scan of the same idempotency key, reads the day's usage
    /// (`kiwi_daily_usage`) and inserts the queued scan, or refuses it, where the gateway used five round trips. Being
    /// `VOLATILE` in READ COMMITTED, each statement after the lock reads a fresh snapshot, so it sees every reservation
    /// committed before the lock was granted, as the transaction it replaces did.
    static let reservationFunction =
        Migration(
            version: 10,
            name: "reserve a scan in one statement",
            statements: [
                """
                CREATE FUNCTION kiwi_daily_usage(p_quota_key bytea, p_day date)
                RETURNS TABLE (used_scans bigint, used_tokens bigint, everyones_spend bigint)
                LANGUAGE sql STABLE AS $$
                    SELECT (SELECT count(*) FROM scans WHERE quota_key = p_quota_key AND scan_date = p_day AND state <> 'failed')
                            + COALESCE(usage.scan_count, 0),
                        COALESCE(usage.tokens, 0), COALESCE((SELECT cost_nanousd FROM model_spend WHERE spend_date = p_day), 0)
                    FROM (SELECT 1) AS one
                    LEFT JOIN scan_usage AS usage ON usage.quota_key = p_quota_key AND usage.scan_date = p_day
                $$
                """,
                // outcome: 'replay' (an earlier scan of the key, usage NULL), 'refused' (the usage, no scan) or
                // 'reserved' (the usage before it, and the new scan). A NULL limit is no limit.
                """
                CREATE FUNCTION kiwi_reserve_scan(
                    p_id uuid, p_user_id uuid, p_quota_key bytea, p_day date, p_idempotency_key text, p_photo_sha256 bytea,
                    p_deadline timestamptz, p_lock bigint, p_scan_limit bigint, p_token_limit bigint, p_budget_nanos bigint
                )
                RETURNS TABLE (
                    r_id uuid, r_user_id uuid, r_state text, r_error_code text, r_error_message text, r_photo_sha256 bytea,
                    r_deadline timestamptz, r_created_at timestamptz, r_result text, r_model_ms integer,
                    r_retry_after_seconds integer, outcome text, used_scans bigint, used_tokens bigint, everyones_spend bigint
                )
                LANGUAGE plpgsql VOLATILE AS $$
                BEGIN
                    PERFORM pg_advisory_xact_lock(p_lock);
                    IF p_idempotency_key IS NOT NULL THEN
                        RETURN QUERY
                            SELECT s.id, s.user_id, s.state, s.error_code, COALESCE(s.error_message, ''), s.photo_sha256, s.deadline,
                                s.created_at, s.result::text, s.model_ms, s.retry_after_seconds, 'replay'::text,
                                NULL::bigint, NULL::bigint, NULL::bigint
                            FROM scans AS s WHERE s.user_id = p_user_id AND s.idempotency_key = p_idempotency_key;
                        IF FOUND THEN RETURN; END IF;
                    END IF;
                    SELECT d.used_scans, d.used_tokens, d.everyones_spend INTO used_scans, used_tokens, everyones_spend
                    FROM kiwi_daily_usage(p_quota_key, p_day) AS d;
                    IF used_scans >= p_scan_limit OR used_tokens >= p_token_limit OR everyones_spend >= p_budget_nanos THEN
                        outcome := 'refused';
                        RETURN NEXT;
                        RETURN;
                    END IF;
                    RETURN QUERY
                        INSERT INTO scans AS s (id, user_id, quota_key, scan_date, state, idempotency_key, photo_sha256, deadline)
                        VALUES (p_id, p_user_id, p_quota_key, p_day, 'queued', p_idempotency_key, p_photo_sha256, p_deadline)
                        RETURNING s.id, s.user_id, s.state, s.error_code, COALESCE(s.error_message, ''), s.photo_sha256, s.deadline,
                            s.created_at, s.result::text, s.model_ms, s.retry_after_seconds, 'reserved'::text,
                            used_scans, used_tokens, everyones_spend;
                END
                $$
                """,
            ]
        )

    /// Everyone's spend of a day in 16 parts (docs/architecture.md, "Spend and model routes"): a scan's end adds its
    /// cost to the part its id picks, so that workers ending scans at once no longer queue on one row's lock until
    /// each commits. `model_spend` stays, for workers of an earlier release during a rollout; `daily_model_spend` sums
    /// both, and `kiwi_daily_usage` reads it.
    static let modelSpendParts =
        Migration(
            version: 11,
            name: "spread everyone's spend over parts",
            statements: [
                """
                CREATE TABLE model_spend_parts (
                    spend_date date NOT NULL,
                    part smallint NOT NULL CHECK (part BETWEEN 0 AND 15),
                    cost_nanousd bigint NOT NULL CHECK (cost_nanousd >= 0),
                    tokens bigint NOT NULL CHECK (tokens >= 0),
                    PRIMARY KEY (spend_date, part)
                )
                """,
                """
                CREATE VIEW daily_model_spend AS
                    SELECT spend_date, sum(cost_nanousd)::bigint AS cost_nanousd, sum(tokens)::bigint AS tokens
                    FROM (
                        SELECT spend_date, cost_nanousd, tokens FROM model_spend
                        UNION ALL SELECT spend_date, cost_nanousd, tokens FROM model_spend_parts
                    ) AS parts
                    GROUP BY spend_date
                """,
                """
                CREATE OR REPLACE FUNCTION kiwi_daily_usage(p_quota_key bytea, p_day date)
                RETURNS TABLE (used_scans bigint, used_tokens bigint, everyones_spend bigint)
                LANGUAGE sql STABLE AS $$
                    SELECT (SELECT count(*) FROM scans WHERE quota_key = p_quota_key AND scan_date = p_day AND state <> 'failed')
                            + COALESCE(usage.scan_count, 0),
                        COALESCE(usage.tokens, 0), COALESCE((SELECT cost_nanousd FROM daily_model_spend WHERE spend_date = p_day), 0)
                    FROM (SELECT 1) AS one
                    LEFT JOIN scan_usage AS usage ON usage.quota_key = p_quota_key AND usage.scan_date = p_day
                $$
                """,
            ]
        )

    /// The elements of an open scan's answer shown to its client while the model writes it (docs/architecture.md,
    /// "Streamed scans"): `partials`, the entries a worker appended in order (each a ``ScanPartial`` with `at`, the
    /// epoch milliseconds of its acceptance), NULL when none and again once the scan is final; `partial_count`, how many
    /// were appended in all, kept after the end because the final event's id counts them.
    static let scanPartials =
        Migration(
            version: 12,
            name: "keep a scan's streamed elements while it is open",
            statements: [
                "ALTER TABLE scans ADD COLUMN partials jsonb, ADD COLUMN partial_count integer NOT NULL DEFAULT 0"
            ]
        )

    /// Refinements (docs/architecture.md, "Refinements"): a scan made from a succeeded scan's ingredients as the person
    /// confirmed them, with no photo. `parent_id` is the scan refined, `root_id` the photo scan at the start of the chain
    /// (both NULL for a photo scan; no foreign key, so deleting a scan keeps its refinements), `ingredients` the names
    /// confirmed, and `free` whether it was one of the chain's free refinements: `kiwi_daily_usage` does not count those.
    /// `photo_sha256` of a refinement is the digest of its request (parent and names), so that an `Idempotency-Key`
    /// is checked against it as against a photo.
    ///
    /// `kiwi_reserve_scan` gains the parent: under the person's lock it replays the key as before, then checks the parent
    /// (the user's succeeded fridge scan or refinement) and locks the chain's photo scan's row, so that two refinements of
    /// one chain price themselves one after the other: the first `p_free_refinements` that are not `failed` are free (and
    /// meet only the token limit and the budget), later ones count as scans. The version of migration 10 stays, for
    /// gateways of the previous release during a rollout.
    static let refinements =
        Migration(
            version: 13,
            name: "refine a scan from its confirmed ingredients",
            statements: [
                """
                ALTER TABLE scans
                    ADD COLUMN parent_id uuid,
                    ADD COLUMN root_id uuid,
                    ADD COLUMN ingredients jsonb,
                    ADD COLUMN free boolean NOT NULL DEFAULT false,
                    ADD CONSTRAINT scans_refinement CHECK (
                        (parent_id IS NULL) = (root_id IS NULL) AND (parent_id IS NULL) = (ingredients IS NULL) AND (NOT free OR parent_id IS NOT NULL)
                    )
                """,
                "CREATE INDEX scans_refinements ON scans (root_id) WHERE root_id IS NOT NULL",
                """
                CREATE OR REPLACE FUNCTION kiwi_daily_usage(p_quota_key bytea, p_day date)
                RETURNS TABLE (used_scans bigint, used_tokens bigint, everyones_spend bigint)
                LANGUAGE sql STABLE AS $$
                    SELECT (SELECT count(*) FROM scans WHERE quota_key = p_quota_key AND scan_date = p_day AND state <> 'failed' AND NOT free)
                            + COALESCE(usage.scan_count, 0),
                        COALESCE(usage.tokens, 0), COALESCE((SELECT cost_nanousd FROM daily_model_spend WHERE spend_date = p_day), 0)
                    FROM (SELECT 1) AS one
                    LEFT JOIN scan_usage AS usage ON usage.quota_key = p_quota_key AND usage.scan_date = p_day
                $$
                """,
                // outcome: as in migration 10, and for a refinement 'no_parent' (no such scan of the user) or
                // 'not_refinable' (open, failed, or a dish scan); r_free says whether the scan is (or would have been) free.
                """
                CREATE FUNCTION kiwi_reserve_scan(
                    p_id uuid, p_user_id uuid, p_quota_key bytea, p_day date, p_idempotency_key text, p_photo_sha256 bytea,
                    p_deadline timestamptz, p_lock bigint, p_scan_limit bigint, p_token_limit bigint, p_budget_nanos bigint,
                    p_parent_id uuid, p_ingredients jsonb, p_free_refinements integer
                )
                RETURNS TABLE (
                    r_id uuid, r_user_id uuid, r_state text, r_error_code text, r_error_message text, r_photo_sha256 bytea,
                    r_deadline timestamptz, r_created_at timestamptz, r_result text, r_model_ms integer,
                    r_retry_after_seconds integer, r_parent_id uuid, r_free boolean, outcome text, used_scans bigint,
                    used_tokens bigint, everyones_spend bigint
                )
                LANGUAGE plpgsql VOLATILE AS $$
                DECLARE
                    v_root uuid;
                    v_refinable boolean;
                BEGIN
                    PERFORM pg_advisory_xact_lock(p_lock);
                    r_free := false;
                    IF p_idempotency_key IS NOT NULL THEN
                        RETURN QUERY
                            SELECT s.id, s.user_id, s.state, s.error_code, COALESCE(s.error_message, ''), s.photo_sha256, s.deadline,
                                s.created_at, s.result::text, s.model_ms, s.retry_after_seconds, s.parent_id, s.free, 'replay'::text,
                                NULL::bigint, NULL::bigint, NULL::bigint
                            FROM scans AS s WHERE s.user_id = p_user_id AND s.idempotency_key = p_idempotency_key;
                        IF FOUND THEN RETURN; END IF;
                    END IF;
                    IF p_parent_id IS NOT NULL THEN
                        SELECT COALESCE(p.root_id, p.id), p.state = 'succeeded' AND COALESCE(p.result->>'mode', 'fridge') = 'fridge'
                        INTO v_root, v_refinable
                        FROM scans AS p WHERE p.id = p_parent_id AND p.user_id = p_user_id;
                        IF NOT FOUND THEN
                            outcome := 'no_parent';
                            RETURN NEXT;
                            RETURN;
                        END IF;
                        IF NOT v_refinable THEN
                            outcome := 'not_refinable';
                            RETURN NEXT;
                            RETURN;
                        END IF;
                        PERFORM 1 FROM scans WHERE id = v_root FOR UPDATE;
                        r_free := (SELECT count(*) FROM scans WHERE root_id = v_root AND free AND state <> 'failed') < p_free_refinements;
                    END IF;
                    SELECT d.used_scans, d.used_tokens, d.everyones_spend INTO used_scans, used_tokens, everyones_spend
                    FROM kiwi_daily_usage(p_quota_key, p_day) AS d;
                    IF (used_scans >= p_scan_limit AND NOT r_free) OR used_tokens >= p_token_limit OR everyones_spend >= p_budget_nanos THEN
                        outcome := 'refused';
                        RETURN NEXT;
                        RETURN;
                    END IF;
                    RETURN QUERY
                        INSERT INTO scans AS s (
                            id, user_id, quota_key, scan_date, state, idempotency_key, photo_sha256, deadline, parent_id, root_id,
                            ingredients, free
                        )
                        VALUES (
                            p_id, p_user_id, p_quota_key, p_day, 'queued', p_idempotency_key, p_photo_sha256, p_deadline, p_parent_id,
                            v_root, p_ingredients, r_free
                        )
                        RETURNING s.id, s.user_id, s.state, s.error_code, COALESCE(s.error_message, ''), s.photo_sha256, s.deadline,
                            s.created_at, s.result::text, s.model_ms, s.retry_after_seconds, s.parent_id, s.free, 'reserved'::text,
                            used_scans, used_tokens, everyones_spend;
                END
                $$
                """,
            ]
        )

    /// Photos at rest (docs/architecture.md, "Photos at rest: crypto-shredding"): `photo_key`, the 32 random bytes the
    /// scan's job is sealed under, held on the row only while the scan is open (the WAL and the row's old versions keep
    /// copies longer: docs/architecture.md, "What a backup reveals"). The constraint makes a final scan that still holds
    /// its key an error, not a leak: every statement that ends a scan drops it. `kiwi_reserve_scan` gains the key and
    /// writes it with the new scan in its one statement; the version of migration 13 stays, for gateways of the
    /// previous release during a rollout (their scans have no key, their photos travel in the clear).
    static let photoKeys =
        Migration(
            version: 14,
            name: "keep each open scan's photo key",
            statements: [
                """
                ALTER TABLE scans
                    ADD COLUMN photo_key bytea,
                    ADD CONSTRAINT scans_photo_key CHECK (
                        photo_key IS NULL OR (octet_length(photo_key) = 32 AND state IN ('queued', 'running'))
                    )
                """,
                """
                CREATE FUNCTION kiwi_reserve_scan(
                    p_id uuid, p_user_id uuid, p_quota_key bytea, p_day date, p_idempotency_key text, p_photo_sha256 bytea,
                    p_deadline timestamptz, p_lock bigint, p_scan_limit bigint, p_token_limit bigint, p_budget_nanos bigint,
                    p_parent_id uuid, p_ingredients jsonb, p_free_refinements integer, p_photo_key bytea
                )
                RETURNS TABLE (
                    r_id uuid, r_user_id uuid, r_state text, r_error_code text, r_error_message text, r_photo_sha256 bytea,
                    r_deadline timestamptz, r_created_at timestamptz, r_result text, r_model_ms integer,
                    r_retry_after_seconds integer, r_parent_id uuid, r_free boolean, outcome text, used_scans bigint,
                    used_tokens bigint, everyones_spend bigint
                )
                LANGUAGE plpgsql VOLATILE AS $$
                DECLARE
                    v_root uuid;
                    v_refinable boolean;
                BEGIN
                    PERFORM pg_advisory_xact_lock(p_lock);
                    r_free := false;
                    IF p_idempotency_key IS NOT NULL THEN
                        RETURN QUERY
                            SELECT s.id, s.user_id, s.state, s.error_code, COALESCE(s.error_message, ''), s.photo_sha256, s.deadline,
                                s.created_at, s.result::text, s.model_ms, s.retry_after_seconds, s.parent_id, s.free, 'replay'::text,
                                NULL::bigint, NULL::bigint, NULL::bigint
                            FROM scans AS s WHERE s.user_id = p_user_id AND s.idempotency_key = p_idempotency_key;
                        IF FOUND THEN RETURN; END IF;
                    END IF;
                    IF p_parent_id IS NOT NULL THEN
                        SELECT COALESCE(p.root_id, p.id), p.state = 'succeeded' AND COALESCE(p.result->>'mode', 'fridge') = 'fridge'
                        INTO v_root, v_refinable
                        FROM scans AS p WHERE p.id = p_parent_id AND p.user_id = p_user_id;
                        IF NOT FOUND THEN
                            outcome := 'no_parent';
                            RETURN NEXT;
                            RETURN;
                        END IF;
                        IF NOT v_refinable THEN
                            outcome := 'not_refinable';
                            RETURN NEXT;
                            RETURN;
                        END IF;
                        PERFORM 1 FROM scans WHERE id = v_root FOR UPDATE;
                        r_free := (SELECT count(*) FROM scans WHERE root_id = v_root AND free AND state <> 'failed') < p_free_refinements;
                    END IF;
                    SELECT d.used_scans, d.used_tokens, d.everyones_spend INTO used_scans, used_tokens, everyones_spend
                    FROM kiwi_daily_usage(p_quota_key, p_day) AS d;
                    IF (used_scans >= p_scan_limit AND NOT r_free) OR used_tokens >= p_token_limit OR everyones_spend >= p_budget_nanos THEN
                        outcome := 'refused';
                        RETURN NEXT;
                        RETURN;
                    END IF;
                    RETURN QUERY
                        INSERT INTO scans AS s (
                            id, user_id, quota_key, scan_date, state, idempotency_key, photo_sha256, deadline, parent_id, root_id,
                            ingredients, free, photo_key
                        )
                        VALUES (
                            p_id, p_user_id, p_quota_key, p_day, 'queued', p_idempotency_key, p_photo_sha256, p_deadline, p_parent_id,
                            v_root, p_ingredients, r_free, p_photo_key
                        )
                        RETURNING s.id, s.user_id, s.state, s.error_code, COALESCE(s.error_message, ''), s.photo_sha256, s.deadline,
                            s.created_at, s.result::text, s.model_ms, s.retry_after_seconds, s.parent_id, s.free, 'reserved'::text,
                            used_scans, used_tokens, everyones_spend;
                END
                $$
                """,
            ]
        )

    /// The pantry and the shopping list (docs/architecture.md, "The pantry and the shopping list"): one row per item,
    /// unique by the item's normalised name (`key`) per user, so that merging is an upsert and two devices adding the
    /// same scan at once give one set of items. `use_soon_by` is kept, not computed, so that listing sorts by it.
    /// No foreign key to `users`: the gateway deletes a user's items itself when the account goes, as it does their
    /// recipes.
    static let kitchen =
        Migration(
            version: 15,
            name: "keep a pantry and a shopping list",
            statements: [
                """
                CREATE TABLE pantry_items (
                    id uuid PRIMARY KEY,
                    user_id uuid NOT NULL,
                    key text NOT NULL CHECK (char_length(key) BETWEEN 1 AND 200),
                    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
                    category text NOT NULL,
                    quantity double precision CHECK (quantity > 0),
                    unit text,
                    best_before date,
                    use_soon_by date,
                    use_soon_estimated boolean NOT NULL,
                    source text NOT NULL CHECK (source IN ('scan', 'manual')),
                    scan_id uuid,
                    added_at timestamptz NOT NULL,
                    last_seen_at timestamptz NOT NULL,
                    UNIQUE (user_id, key)
                )
                """,
                "CREATE INDEX pantry_items_user_use_soon_idx ON pantry_items (user_id, use_soon_by, id)",
                """
                CREATE TABLE shopping_list_items (
                    id uuid PRIMARY KEY,
                    user_id uuid NOT NULL,
                    key text NOT NULL CHECK (char_length(key) BETWEEN 1 AND 200),
                    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
                    section text NOT NULL,
                    checked boolean NOT NULL DEFAULT false,
                    for_recipes text[] NOT NULL,
                    added_at timestamptz NOT NULL,
                    UNIQUE (user_id, key)
                )
                """,
            ]
        )

    /// The nutrition table (docs/architecture.md, "Quantities, scaling and nutrition"): USDA FoodData Central's
    /// Foundation, SR Legacy and FNDDS survey foods, per 100 g, as the committed ``foodTable`` (FoodTable.swift) holds them. The TSV goes
    /// into the statement as one dollar-quoted literal and PostgreSQL splits it, so that loading the 7,349 rows is one
    /// statement of this migration. The scan worker reads the table at start; the gateway replaces its rows when the
    /// committed table changes (``foodTableVersion``).
    static let foods =
        Migration(
            version: 16,
            name: "load the nutrition table",
            statements: [
                """
                CREATE TABLE foods (
                    dataset text NOT NULL CHECK (dataset IN ('foundation', 'sr_legacy', 'survey_fndds')),
                    description text NOT NULL,
                    category text NOT NULL,
                    energy_kcal double precision,
                    protein_g double precision,
                    fat_g double precision,
                    saturated_fat_g double precision,
                    carbohydrate_g double precision,
                    sugars_g double precision,
                    fibre_g double precision,
                    sodium_mg double precision,
                    portion_g double precision,
                    portion_unit text,
                    PRIMARY KEY (dataset, description)
                )
                """,
                insertFoods(from: foodTable),
            ]
        )

    /// The statement that loads the rows of `tsv`, a nutrition table in the form of ``foodTable``, into `foods`: the TSV
    /// goes in as one dollar-quoted literal and PostgreSQL splits it. Migration 16 and ``FoodTableRefresh`` load alike.
    static func insertFoods(from tsv: String) -> String {
        precondition(!tsv.contains("$fdc$"), "a nutrition table cannot hold its own quote, $fdc$")
        return """
            INSERT INTO foods
            SELECT f[1], f[2], f[3], NULLIF(f[4], '')::float8, NULLIF(f[5], '')::float8, NULLIF(f[6], '')::float8,
                NULLIF(f[7], '')::float8, NULLIF(f[8], '')::float8, NULLIF(f[9], '')::float8, NULLIF(f[10], '')::float8,
                NULLIF(f[11], '')::float8, NULLIF(f[12], '')::float8, NULLIF(f[13], '')
            FROM regexp_split_to_table($fdc$\(tsv)$fdc$, E'\\n') AS line, string_to_array(line, E'\\t') AS f
            WHERE line <> '' AND left(line, 1) <> '#'
            """
    }

    /// A reservation returns one row, and the planner is told so. PostgreSQL takes a PL/pgSQL function that returns a
    /// table to return 1,000 rows unless declared otherwise, so it joined the reservation to `scans` (for a replay's
    /// partials) by hashing the whole table, read from start to end for every scan: a cost that grew with the table
    /// (28 ms a reservation at 21,000 scans). With `ROWS 1` the join is one lookup in the primary key. Every version
    /// of the function a gateway still calls is declared: this release's (migration 14) and the previous release's
    /// (migration 13).
    static let singleRowReservation =
        Migration(
            version: 17,
            name: "declare that a reservation returns one row",
            statements: [
                """
                ALTER FUNCTION kiwi_reserve_scan(
                    uuid, uuid, bytea, date, text, bytea, timestamptz, bigint, bigint, bigint, bigint, uuid, jsonb, integer, bytea
                ) ROWS 1
                """,
                """
                ALTER FUNCTION kiwi_reserve_scan(
                    uuid, uuid, bytea, date, text, bytea, timestamptz, bigint, bigint, bigint, bigint, uuid, jsonb, integer
                ) ROWS 1
                """,
            ]
        )

    /// An open scan's partials as rows, one per partial (docs/architecture.md, "Streamed scans"): showing one is an
    /// insert of its few KiB, where appending to the `partials` column of migration 12 read, rewrote and compressed
    /// every partial before it: more than half of PostgreSQL's statement time in scenario A. `position` is the
    /// partial's number, `partial_count` after its show. The column stays, for workers of the previous release during a
    /// rollout: readers take it when a scan has no rows.
    ///
    /// A scan's rows go when it ends, deleted by a trigger on its final state rather than by each statement that ends
    /// it: the trigger's `DELETE` runs after the end has its row's lock, so it sees a show that committed while the end
    /// waited for that lock, which a `DELETE` in the end's own statement, reading as of its start, would leave behind.
    /// Deleting a scan deletes its rows (`ON DELETE CASCADE`).
    static let partialRows =
        Migration(
            version: 18,
            name: "keep a scan's streamed elements as rows",
            statements: [
                """
                CREATE TABLE scan_partials (
                    scan_id uuid NOT NULL REFERENCES scans (id) ON DELETE CASCADE,
                    position integer NOT NULL CHECK (position > 0),
                    entry jsonb NOT NULL,
                    PRIMARY KEY (scan_id, position)
                )
                """,
                """
                CREATE FUNCTION kiwi_drop_scan_partials() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    DELETE FROM scan_partials WHERE scan_id = NEW.id;
                    RETURN NULL;
                END
                $$
                """,
                """
                CREATE TRIGGER scan_partials_end AFTER UPDATE OF state ON scans FOR EACH ROW
                WHEN (OLD.state IN ('queued', 'running') AND NEW.state IN ('succeeded', 'failed'))
                EXECUTE FUNCTION kiwi_drop_scan_partials()
                """,
            ]
        )

    /// The JSON a scan stores, compressed with LZ4 rather than PostgreSQL's own pglz: a scan's result (about 14 KiB) and
    /// its larger partials exceed the size at which a row's values are compressed, and pglz was 7 % of PostgreSQL's CPU
    /// in scenario A (docs/measurements/2026-11-27-floors.md). Values already stored keep their compression; both
    /// read alike. Needs a server built with LZ4, as Debian's, the PostgreSQL images' and CloudNativePG's are.
    static let lz4Compression =
        Migration(
            version: 19,
            name: "compress a scan's JSON with LZ4",
            statements: [
                "ALTER TABLE scans ALTER COLUMN result SET COMPRESSION lz4",
                "ALTER TABLE scan_partials ALTER COLUMN entry SET COMPRESSION lz4",
            ]
        )

    /// The version of the nutrition table that `foods` holds: the SHA-256 of the TSV it was loaded from, one row. A
    /// migration runs once, so a corrected table would never reach a database that migration 16 had loaded; at every
    /// start the gateway compares this hash with its own table's and, when they differ, replaces the rows
    /// (``FoodTableRefresh``). Empty here: which table migration 16 loaded is not known, so the first start after it
    /// loads the table once more and records its hash.
    static let foodTableVersion =
        Migration(
            version: 20,
            name: "record the nutrition table's version",
            statements: [
                """
                CREATE TABLE food_table_version (
                    id boolean PRIMARY KEY DEFAULT true CHECK (id),
                    sha256 bytea NOT NULL CHECK (octet_length(sha256) = 32),
                    loaded_at timestamptz NOT NULL DEFAULT now()
                )
                """
            ]
        )

    /// Households: people who share one kitchen (docs/architecture.md, "Households"). A person is a member of at most
    /// one (`user_id` is unique); other members know them by the member id and the name they chose; `position` orders
    /// them by when they joined, the longest-standing (who manages the household) first. An invitation is
    /// kept as the SHA-256 of its code, never the code; the last member out deletes the household and, with it, its
    /// invitations.
    static let households =
        Migration(
            version: 21,
            name: "create households, their members and invitations",
            statements: [
                """
                CREATE TABLE households (
                    id uuid PRIMARY KEY,
                    name text NOT NULL,
                    created_at timestamptz NOT NULL
                )
                """,
                """
                CREATE TABLE household_members (
                    id uuid PRIMARY KEY,
                    user_id uuid NOT NULL UNIQUE,
                    household_id uuid NOT NULL REFERENCES households (id) ON DELETE CASCADE,
                    display_name text NOT NULL,
                    joined_at timestamptz NOT NULL,
                    position bigint GENERATED ALWAYS AS IDENTITY
                )
                """,
                "CREATE INDEX household_members_by_household ON household_members (household_id, position)",
                """
                CREATE TABLE household_invitations (
                    code_hash bytea PRIMARY KEY CHECK (octet_length(code_hash) = 32),
                    household_id uuid NOT NULL REFERENCES households (id) ON DELETE CASCADE,
                    expires_at timestamptz NOT NULL
                )
                """,
                "CREATE INDEX household_invitations_by_household ON household_invitations (household_id)",
            ]
        )

    /// A household's shared kitchen (docs/architecture.md, "Households"): the pantry, the shopping list and the recipe
    /// box belong to a kitchen, `kitchen_id`, which is the household's id for its members and the person's own user id
    /// while they are in none. A saved recipe's note and rating are each member's own (`saved_recipe_notes`), so they
    /// move out of `saved_recipes`. No foreign key from `kitchen_id`: it names a user or a household, and the gateway
    /// deletes a kitchen itself when its last member leaves or the account goes.
    static let sharedKitchen =
        Migration(
            version: 22,
            name: "share a household's kitchen",
            statements: [
                "ALTER TABLE pantry_items RENAME COLUMN user_id TO kitchen_id",
                "ALTER TABLE shopping_list_items RENAME COLUMN user_id TO kitchen_id",
                "ALTER TABLE saved_recipes RENAME COLUMN user_id TO kitchen_id",
                """
                CREATE TABLE saved_recipe_notes (
                    saved_recipe_id uuid NOT NULL REFERENCES saved_recipes (id) ON DELETE CASCADE,
                    user_id uuid NOT NULL,
                    note text CHECK (char_length(note) <= 1000),
                    rating smallint CHECK (rating BETWEEN 1 AND 5),
                    PRIMARY KEY (saved_recipe_id, user_id)
                )
                """,
                "CREATE INDEX saved_recipe_notes_by_user ON saved_recipe_notes (user_id)",
                """
                INSERT INTO saved_recipe_notes (saved_recipe_id, user_id, note, rating)
                SELECT id, kitchen_id, note, rating FROM saved_recipes WHERE note IS NOT NULL OR rating IS NOT NULL
                """,
                "ALTER TABLE saved_recipes DROP COLUMN note, DROP COLUMN rating, DROP COLUMN updated_at",
            ]
        )

    /// How much of each shopping list item to buy (docs/architecture.md, "The pantry and the shopping list"): what its
    /// recipes need, in one unit, less the pantry; both null when unknown (an item typed by hand, or amounts that do
    /// not add up). Items listed before it have none.
    static let shoppingQuantities =
        Migration(
            version: 23,
            name: "shopping list quantities",
            statements: [
                """
                ALTER TABLE shopping_list_items
                    ADD COLUMN quantity double precision CHECK (quantity > 0),
                    ADD COLUMN unit text,
                    ADD CONSTRAINT shopping_list_items_quantity_has_unit CHECK ((quantity IS NULL) = (unit IS NULL))
                """
            ]
        )

    /// A kitchen's meal plans (docs/architecture.md, "Meal plans"): what was asked for, and the meals once outlined.
    /// `created_by` is who asked (migration 25 lets it go). A plan's id is the id of the scan that outlines it; the scan worker writes `schedule` with that scan's success
    /// (``ScanTransitionStore``), so that a plan outlives its scan's retention. No foreign key to `scans`: a plan
    /// stays when its scan is deleted, as a saved recipe does.
    static let mealPlans =
        Migration(
            version: 24,
            name: "meal plans",
            statements: [
                """
                CREATE TABLE meal_plans (
                    id uuid PRIMARY KEY,
                    kitchen_id uuid NOT NULL,
                    created_by uuid NOT NULL,
                    first_day date NOT NULL,
                    days integer NOT NULL CHECK (days BETWEEN 1 AND 14),
                    meal_times text[] NOT NULL CHECK (cardinality(meal_times) BETWEEN 1 AND 3),
                    servings integer NOT NULL CHECK (servings BETWEEN 1 AND 12),
                    pantry_was_empty boolean NOT NULL,
                    schedule jsonb,
                    created_at timestamptz NOT NULL DEFAULT now(),
                    updated_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                "CREATE INDEX meal_plans_by_kitchen ON meal_plans (kitchen_id, first_day)",
            ]
        )

    /// A plan's private calendar feed (`/c/{token}`, docs/architecture.md, "Meal plans"): the SHA-256 of its token,
    /// never the token, which is shown once, when made; null while the plan has none. Making a new one or deleting it
    /// revokes the old link. And `created_by` becomes null when that person leaves the kitchen: a household's plan
    /// keeps no departed member's id.
    static let planCalendars =
        Migration(
            version: 25,
            name: "plan calendar feeds",
            statements: [
                """
                ALTER TABLE meal_plans
                    ADD COLUMN calendar_token_sha256 bytea UNIQUE CHECK (octet_length(calendar_token_sha256) = 32),
                    ALTER COLUMN created_by DROP NOT NULL
                """
            ]
        )

    /// A planned meal's full recipe (docs/architecture.md, "Meal plans"), written by a scan of its own that is included
    /// in the plan's price: `plan_meal_recipes` ties each such scan to its plan and meal, and the scan worker writes the
    /// recipe (or why the guard withheld it) there with the scan's success (``ScanTransitionStore``), so that it outlives
    /// the scan's retention. `plan_meal_replacements` ties the scan that replaces a meal to it, likewise: the worker puts
    /// the new meal in the old one's place, and forgets the old one's recipes. Deleting the plan deletes both. A scan may
    /// now be free without refining one:
    /// `kiwi_reserve_scan` gains `p_free`, whose scan meets only the token limit and the budget, and refuses to refine
    /// such a scan (`not_refinable`: its free refinements would be free calls on top of a free call); the version of
    /// migration 14 stays, for gateways of the previous release during a rollout.
    static let mealRecipes =
        Migration(
            version: 26,
            name: "planned meals' recipes and replacements",
            statements: [
                """
                CREATE TABLE plan_meal_recipes (
                    scan_id uuid PRIMARY KEY,
                    plan_id uuid NOT NULL REFERENCES meal_plans (id) ON DELETE CASCADE,
                    meal_id uuid NOT NULL,
                    recipe jsonb,
                    withheld_reason text,
                    created_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                "CREATE INDEX plan_meal_recipes_by_meal ON plan_meal_recipes (plan_id, meal_id)",
                """
                CREATE TABLE plan_meal_replacements (
                    scan_id uuid PRIMARY KEY,
                    plan_id uuid NOT NULL REFERENCES meal_plans (id) ON DELETE CASCADE,
                    meal_id uuid NOT NULL
                )
                """,
                "CREATE INDEX plan_meal_replacements_by_plan ON plan_meal_replacements (plan_id)",
                """
                ALTER TABLE scans
                    DROP CONSTRAINT scans_refinement,
                    ADD CONSTRAINT scans_refinement CHECK (
                        (parent_id IS NULL) = (root_id IS NULL) AND (parent_id IS NULL) = (ingredients IS NULL)
                    )
                """,
                """
                CREATE FUNCTION kiwi_reserve_scan(
                    p_id uuid, p_user_id uuid, p_quota_key bytea, p_day date, p_idempotency_key text, p_photo_sha256 bytea,
                    p_deadline timestamptz, p_lock bigint, p_scan_limit bigint, p_token_limit bigint, p_budget_nanos bigint,
                    p_parent_id uuid, p_ingredients jsonb, p_free_refinements integer, p_photo_key bytea, p_free boolean
                )
                RETURNS TABLE (
                    r_id uuid, r_user_id uuid, r_state text, r_error_code text, r_error_message text, r_photo_sha256 bytea,
                    r_deadline timestamptz, r_created_at timestamptz, r_result text, r_model_ms integer,
                    r_retry_after_seconds integer, r_parent_id uuid, r_free boolean, outcome text, used_scans bigint,
                    used_tokens bigint, everyones_spend bigint
                )
                LANGUAGE plpgsql VOLATILE ROWS 1 AS $$
                DECLARE
                    v_root uuid;
                    v_refinable boolean;
                BEGIN
                    PERFORM pg_advisory_xact_lock(p_lock);
                    r_free := COALESCE(p_free, false);
                    IF p_idempotency_key IS NOT NULL THEN
                        RETURN QUERY
                            SELECT s.id, s.user_id, s.state, s.error_code, COALESCE(s.error_message, ''), s.photo_sha256, s.deadline,
                                s.created_at, s.result::text, s.model_ms, s.retry_after_seconds, s.parent_id, s.free, 'replay'::text,
                                NULL::bigint, NULL::bigint, NULL::bigint
                            FROM scans AS s WHERE s.user_id = p_user_id AND s.idempotency_key = p_idempotency_key;
                        IF FOUND THEN RETURN; END IF;
                    END IF;
                    IF p_parent_id IS NOT NULL THEN
                        SELECT COALESCE(p.root_id, p.id),
                            p.state = 'succeeded' AND COALESCE(p.result->>'mode', 'fridge') = 'fridge' AND NOT (p.free AND p.parent_id IS NULL)
                        INTO v_root, v_refinable
                        FROM scans AS p WHERE p.id = p_parent_id AND p.user_id = p_user_id;
                        IF NOT FOUND THEN
                            outcome := 'no_parent';
                            RETURN NEXT;
                            RETURN;
                        END IF;
                        IF NOT v_refinable THEN
                            outcome := 'not_refinable';
                            RETURN NEXT;
                            RETURN;
                        END IF;
                        PERFORM 1 FROM scans WHERE id = v_root FOR UPDATE;
                        r_free := (SELECT count(*) FROM scans WHERE root_id = v_root AND free AND state <> 'failed') < p_free_refinements;
                    END IF;
                    SELECT d.used_scans, d.used_tokens, d.everyones_spend INTO used_scans, used_tokens, everyones_spend
                    FROM kiwi_daily_usage(p_quota_key, p_day) AS d;
                    IF (used_scans >= p_scan_limit AND NOT r_free) OR used_tokens >= p_token_limit OR everyones_spend >= p_budget_nanos THEN
                        outcome := 'refused';
                        RETURN NEXT;
                        RETURN;
                    END IF;
                    RETURN QUERY
                        INSERT INTO scans AS s (
                            id, user_id, quota_key, scan_date, state, idempotency_key, photo_sha256, deadline, parent_id, root_id,
                            ingredients, free, photo_key
                        )
                        VALUES (
                            p_id, p_user_id, p_quota_key, p_day, 'queued', p_idempotency_key, p_photo_sha256, p_deadline, p_parent_id,
                            v_root, p_ingredients, r_free, p_photo_key
                        )
                        RETURNING s.id, s.user_id, s.state, s.error_code, COALESCE(s.error_message, ''), s.photo_sha256, s.deadline,
                            s.created_at, s.result::text, s.model_ms, s.retry_after_seconds, s.parent_id, s.free, 'reserved'::text,
                            used_scans, used_tokens, everyones_spend;
                END
                $$
                """,
            ]
        )

    /// Version 27 (docs/architecture.md, "Receipt scans"): a scan's `mode`, written when it is reserved, so that the list
    /// of scans leaves out the modes an app did not ask for (``ScanMode/listedByDefault``) whatever the scan's state. Scans
    /// from before it have none: they are fridge and dish scans. `kiwi_reserve_scan` gains `p_mode`; the version of
    /// migration 26 stays, for gateways of the previous release during a rollout, whose scans have no mode.
    static let receiptScans =
        Migration(
            version: 27,
            name: "scan modes",
            statements: [
                "ALTER TABLE scans ADD COLUMN mode text",
                """
                CREATE FUNCTION kiwi_reserve_scan(
                    p_id uuid, p_user_id uuid, p_quota_key bytea, p_day date, p_idempotency_key text, p_photo_sha256 bytea,
                    p_deadline timestamptz, p_lock bigint, p_scan_limit bigint, p_token_limit bigint, p_budget_nanos bigint,
                    p_parent_id uuid, p_ingredients jsonb, p_free_refinements integer, p_photo_key bytea, p_free boolean,
                    p_mode text
                )
                RETURNS TABLE (
                    r_id uuid, r_user_id uuid, r_state text, r_error_code text, r_error_message text, r_photo_sha256 bytea,
                    r_deadline timestamptz, r_created_at timestamptz, r_result text, r_model_ms integer,
                    r_retry_after_seconds integer, r_parent_id uuid, r_free boolean, outcome text, used_scans bigint,
                    used_tokens bigint, everyones_spend bigint
                )
                LANGUAGE plpgsql VOLATILE ROWS 1 AS $$
                DECLARE
                    v_root uuid;
                    v_refinable boolean;
                BEGIN
                    PERFORM pg_advisory_xact_lock(p_lock);
                    r_free := COALESCE(p_free, false);
                    IF p_idempotency_key IS NOT NULL THEN
                        RETURN QUERY
                            SELECT s.id, s.user_id, s.state, s.error_code, COALESCE(s.error_message, ''), s.photo_sha256, s.deadline,
                                s.created_at, s.result::text, s.model_ms, s.retry_after_seconds, s.parent_id, s.free, 'replay'::text,
                                NULL::bigint, NULL::bigint, NULL::bigint
                            FROM scans AS s WHERE s.user_id = p_user_id AND s.idempotency_key = p_idempotency_key;
                        IF FOUND THEN RETURN; END IF;
                    END IF;
                    IF p_parent_id IS NOT NULL THEN
                        SELECT COALESCE(p.root_id, p.id),
                            p.state = 'succeeded' AND COALESCE(p.result->>'mode', 'fridge') = 'fridge' AND NOT (p.free AND p.parent_id IS NULL)
                        INTO v_root, v_refinable
                        FROM scans AS p WHERE p.id = p_parent_id AND p.user_id = p_user_id;
                        IF NOT FOUND THEN
                            outcome := 'no_parent';
                            RETURN NEXT;
                            RETURN;
                        END IF;
                        IF NOT v_refinable THEN
                            outcome := 'not_refinable';
                            RETURN NEXT;
                            RETURN;
                        END IF;
                        PERFORM 1 FROM scans WHERE id = v_root FOR UPDATE;
                        r_free := (SELECT count(*) FROM scans WHERE root_id = v_root AND free AND state <> 'failed') < p_free_refinements;
                    END IF;
                    SELECT d.used_scans, d.used_tokens, d.everyones_spend INTO used_scans, used_tokens, everyones_spend
                    FROM kiwi_daily_usage(p_quota_key, p_day) AS d;
                    IF (used_scans >= p_scan_limit AND NOT r_free) OR used_tokens >= p_token_limit OR everyones_spend >= p_budget_nanos THEN
                        outcome := 'refused';
                        RETURN NEXT;
                        RETURN;
                    END IF;
                    RETURN QUERY
                        INSERT INTO scans AS s (
                            id, user_id, quota_key, scan_date, state, idempotency_key, photo_sha256, deadline, parent_id, root_id,
                            ingredients, free, photo_key, mode
                        )
                        VALUES (
                            p_id, p_user_id, p_quota_key, p_day, 'queued', p_idempotency_key, p_photo_sha256, p_deadline, p_parent_id,
                            v_root, p_ingredients, r_free, p_photo_key, p_mode
                        )
                        RETURNING s.id, s.user_id, s.state, s.error_code, COALESCE(s.error_message, ''), s.photo_sha256, s.deadline,
                            s.created_at, s.result::text, s.model_ms, s.retry_after_seconds, s.parent_id, s.free, 'reserved'::text,
                            used_scans, used_tokens, everyones_spend;
                END
                $$
                """,
            ]
        )

    /// Version 28 (docs/architecture.md, "Receipts in the pantry"): the receipt lines each kitchen's pantry was filled
    /// from, so that a line goes in once however often its scan is added, and another scan of the same receipt (the
    /// same `fingerprint`) is noticed. Kept with the kitchen: merged into a household's, deleted with the pantry. And
    /// each pantry item's last price per unit, from a receipt; and the kitchen's last price of each food it bought
    /// (`pantry_prices`), which a recipe's or a shopping list's cost is counted from, kept after the item is gone.
    static let pantryReceipts =
        Migration(
            version: 28,
            name: "receipt lines in the pantry",
            statements: [
                """
                CREATE TABLE pantry_receipt_lines (
                    kitchen_id uuid NOT NULL,
                    scan_id uuid NOT NULL,
                    line_id uuid NOT NULL,
                    fingerprint text,
                    added_at timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (kitchen_id, scan_id, line_id)
                )
                """,
                "CREATE INDEX pantry_receipt_lines_by_fingerprint ON pantry_receipt_lines (kitchen_id, fingerprint) WHERE fingerprint IS NOT NULL",
                """
                ALTER TABLE pantry_items
                    ADD COLUMN price_amount double precision CHECK (price_amount > 0),
                    ADD COLUMN price_unit text,
                    ADD COLUMN price_currency text CHECK (price_currency ~ '^[A-Z]{3}$'),
                    ADD CONSTRAINT pantry_items_price CHECK ((price_amount IS NULL) = (price_unit IS NULL) AND (price_amount IS NULL) = (price_currency IS NULL))
                """,
                """
                CREATE TABLE pantry_prices (
                    kitchen_id uuid NOT NULL,
                    key text NOT NULL,
                    amount double precision NOT NULL CHECK (amount > 0),
                    unit text NOT NULL,
                    currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
                    paid_at timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (kitchen_id, key)
                )
                """,
            ]
        )

    /// Version 29: the keys of pantry items, shopping-list items and prices with "ß", "œ", "æ" or "ø" written out
    /// ("weißwein" → "weisswein"), as `IngredientKey` now writes them, so that an item kept before meets the same
    /// name added now. A key whose written-out form another row of the kitchen shares is left as it was: two items the
    /// person kept apart stay apart, and no key is written twice.
    static let writtenOutKeys = Migration(
        version: 29,
        name: "write out sharp s and ligatures in item keys",
        statements: ["pantry_items", "shopping_list_items", "pantry_prices"].map { table in
            func writtenOut(_ key: String) -> String {
                "replace(replace(replace(replace(\(key), 'ß', 'ss'), 'œ', 'oe'), 'æ', 'ae'), 'ø', 'o')"
            }
            return """
                UPDATE \(table) AS t SET key = \(writtenOut("t.key"))
                WHERE t.key ~ '[ßœæø]'
                AND NOT EXISTS (
                    SELECT 1 FROM \(table) AS other
                    WHERE other.kitchen_id = t.kitchen_id AND other.key <> t.key AND \(writtenOut("other.key")) = \(writtenOut("t.key"))
                )
                """
        }
    )

    /// Version 30 (docs/architecture.md, "Push notifications"): the phones that hear when a person's scans end. One row
    /// per APNs token, in lower-case hex as the request path to Apple takes it (a token is an address, not a secret;
    /// logs show its last digits only), with the session that registered it, whose sign-out removes it, and when that
    /// session expires, after which the gateway's hourly purge removes it. No foreign key to `users` or `sessions`,
    /// which the auth service owns: the gateway deletes a person's devices itself.
    static let devices = Migration(
        version: 30,
        name: "devices for push notifications",
        statements: [
            """
            CREATE TABLE devices (
                token text PRIMARY KEY CHECK (token ~ '^([0-9a-f]{2}){32,100}$'),
                user_id uuid NOT NULL,
                session_hash bytea NOT NULL CHECK (octet_length(session_hash) = 32),
                session_expires_at timestamptz NOT NULL,
                bundle_id text NOT NULL CHECK (length(bundle_id) BETWEEN 3 AND 155),
                environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
                registered_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            "CREATE INDEX devices_by_user ON devices (user_id, registered_at DESC)",
            "CREATE INDEX devices_by_session ON devices (session_hash)",
            "CREATE INDEX devices_by_expiry ON devices (session_expires_at)",
        ]
    )

    /// Version 31 (docs/architecture.md, "Push notifications"): which phones the notifier has told of a scan's end, so
    /// that a redelivered event or a restarted notifier sends no second notification (one recorded per scan and token).
    /// The gateway owns it, as it owns `scans`, whose deletion (the account's, or the retention purge) takes the rows
    /// along; the notifier writes them.
    static let notificationsSent = Migration(
        version: 31,
        name: "notifications sent",
        statements: [
            """
            CREATE TABLE notifications_sent (
                scan_id uuid NOT NULL REFERENCES scans (id) ON DELETE CASCADE,
                token text NOT NULL CHECK (token ~ '^([0-9a-f]{2}){32,100}$'),
                sent_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (scan_id, token)
            )
            """
        ]
    )

    /// The auth service drops the `scan_quota` table of migration 1, should it run after the gateway's migration 2 on
    /// a new database.
    static let retireScanQuota = Migration(version: 3, name: "retire scan_quota", statements: ["DROP TABLE IF EXISTS scan_quota"])
}
