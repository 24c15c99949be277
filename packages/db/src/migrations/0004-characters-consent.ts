import { type Kysely, sql } from 'kysely';

/**
 * Characters, the people they depict (subjects), likeness consents and provider copies (bindings).
 *
 * The contract's rules live here as constraints and triggers, so they hold for every writer — the API,
 * an operator's psql session, a future import job: frozen versions cannot be edited, consent terms cannot
 * be edited once the consent has left `pending`, consent history is append-only and is written by the
 * database itself, a subject is attested adult and not political, a consent spans at most ten years, and
 * every link carries its workspace so that no link can cross workspaces (composite foreign keys).
 * Trigger errors use SQLSTATE 23514 (check_violation) so the gateway can answer them as bad input.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE artifacts ADD CONSTRAINT artifacts_id_workspace UNIQUE (id, workspace_id);

    CREATE TABLE subjects (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      display_name text,
      email text,
      public_role text,
      union_status text,
      attested_adult boolean NOT NULL,
      attested_not_political boolean NOT NULL,
      erased_at timestamptz,
      etag text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (id, workspace_id),
      CONSTRAINT subject_attested_adult_not_political CHECK (attested_adult AND attested_not_political),
      CONSTRAINT subject_named_until_erased CHECK (erased_at IS NOT NULL OR display_name IS NOT NULL)
    );
    CREATE INDEX subjects_workspace ON subjects (workspace_id, created_at DESC);

    CREATE TABLE likeness_consents (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL,
      subject_id uuid NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'suspended', 'revoked')),
      grantor text NOT NULL CHECK (grantor IN ('subject', 'guardian', 'agent', 'estate')),
      covers_likeness boolean NOT NULL,
      covers_voice boolean NOT NULL,
      scope jsonb NOT NULL CHECK (jsonb_typeof(scope) = 'object'),
      starts_on date NOT NULL,
      ends_on date NOT NULL,
      evidence_kind text NOT NULL CHECK (evidence_kind IN ('signed_release', 'recorded_video', 'esign_envelope', 'other')),
      evidence_sha256 text NOT NULL CHECK (evidence_sha256 ~ '^[0-9a-f]{64}$'),
      etag text NOT NULL,
      created_by uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (id, workspace_id),
      FOREIGN KEY (subject_id, workspace_id) REFERENCES subjects (id, workspace_id) ON DELETE RESTRICT,
      CONSTRAINT consent_ends_after_start CHECK (ends_on >= starts_on),
      CONSTRAINT consent_at_most_ten_years CHECK (ends_on <= starts_on + interval '10 years')
    );
    CREATE INDEX likeness_consents_subject ON likeness_consents (subject_id, created_at DESC);

    CREATE TABLE likeness_consent_events (
      id bigserial PRIMARY KEY,
      consent_id uuid NOT NULL REFERENCES likeness_consents(id) ON DELETE RESTRICT,
      workspace_id uuid NOT NULL,
      from_status text,
      to_status text NOT NULL,
      actor_id uuid,
      reason text,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE INDEX likeness_consent_events_consent ON likeness_consent_events (consent_id, id DESC);

    CREATE TABLE characters (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      project_id uuid NOT NULL,
      name text NOT NULL CHECK (length(name) > 0),
      format text NOT NULL CHECK (format IN ('synthetic', 'likeness')),
      persona jsonb NOT NULL DEFAULT '{}'::jsonb,
      request_id text,
      request_fingerprint text,
      etag text NOT NULL,
      created_by uuid,
      archived_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (id, workspace_id),
      -- No cascade: a project with characters cannot be deleted (archive it instead).
      FOREIGN KEY (project_id, workspace_id) REFERENCES projects (id, workspace_id)
    );
    CREATE UNIQUE INDEX characters_request_id ON characters (workspace_id, request_id) WHERE request_id IS NOT NULL;
    CREATE INDEX characters_project ON characters (project_id, created_at DESC);
    CREATE INDEX characters_workspace ON characters (workspace_id, created_at DESC);

    CREATE TABLE character_references (
      id uuid PRIMARY KEY,
      character_id uuid NOT NULL,
      workspace_id uuid NOT NULL,
      role text NOT NULL CHECK (role IN ('portrait', 'turnaround', 'expression', 'outfit', 'pose', 'voice_sample', 'other')),
      artifact_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      FOREIGN KEY (character_id, workspace_id) REFERENCES characters (id, workspace_id) ON DELETE CASCADE,
      FOREIGN KEY (artifact_id, workspace_id) REFERENCES artifacts (id, workspace_id)
    );
    CREATE INDEX character_references_character ON character_references (character_id, created_at);

    CREATE TABLE character_versions (
      id uuid PRIMARY KEY,
      character_id uuid NOT NULL,
      workspace_id uuid NOT NULL,
      number integer NOT NULL CHECK (number >= 1),
      format text NOT NULL CHECK (format IN ('synthetic', 'likeness')),
      name text NOT NULL,
      persona jsonb NOT NULL,
      "references" jsonb NOT NULL,
      subject_id uuid,
      note text,
      created_by uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      retired_at timestamptz,
      retired_reason text,
      UNIQUE (character_id, number),
      UNIQUE (id, workspace_id),
      FOREIGN KEY (character_id, workspace_id) REFERENCES characters (id, workspace_id) ON DELETE RESTRICT,
      FOREIGN KEY (subject_id, workspace_id) REFERENCES subjects (id, workspace_id) ON DELETE RESTRICT,
      CONSTRAINT version_likeness_names_subject CHECK (format = 'synthetic' OR subject_id IS NOT NULL),
      CONSTRAINT version_has_references CHECK (jsonb_array_length("references") > 0)
    );
    CREATE INDEX character_versions_subject ON character_versions (subject_id) WHERE subject_id IS NOT NULL;

    CREATE TABLE character_bindings (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL,
      version_id uuid NOT NULL,
      provider text NOT NULL,
      asset_kind text NOT NULL CHECK (asset_kind IN ('likeness', 'voice')),
      asset_id text NOT NULL,
      photo_based boolean NOT NULL DEFAULT false,
      provider_consent_status text NOT NULL CHECK (provider_consent_status IN ('pending', 'accepted', 'refused', 'not_required')),
      disabled_at timestamptz,
      etag text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      FOREIGN KEY (version_id, workspace_id) REFERENCES character_versions (id, workspace_id) ON DELETE RESTRICT,
      CONSTRAINT binding_not_required_only_photo_based CHECK (provider_consent_status <> 'not_required' OR photo_based)
    );
    CREATE INDEX character_bindings_version ON character_bindings (version_id);

    -- A frozen version changes only by being retired, once; it is never deleted.
    CREATE FUNCTION character_version_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'character version % is frozen and cannot be deleted', OLD.number USING ERRCODE = '23514';
      END IF;
      IF (NEW.id, NEW.character_id, NEW.workspace_id, NEW.number, NEW.format, NEW.name, NEW.persona, NEW."references",
          NEW.subject_id, NEW.note, NEW.created_by, NEW.created_at)
         IS DISTINCT FROM
         (OLD.id, OLD.character_id, OLD.workspace_id, OLD.number, OLD.format, OLD.name, OLD.persona, OLD."references",
          OLD.subject_id, OLD.note, OLD.created_by, OLD.created_at) THEN
        RAISE EXCEPTION 'character version % is frozen: only retiring it is allowed', OLD.number USING ERRCODE = '23514';
      END IF;
      IF OLD.retired_at IS NOT NULL AND (NEW.retired_at IS DISTINCT FROM OLD.retired_at OR NEW.retired_reason IS DISTINCT FROM OLD.retired_reason) THEN
        RAISE EXCEPTION 'character version % is retired and stays retired', OLD.number USING ERRCODE = '23514';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER character_versions_frozen BEFORE UPDATE OR DELETE ON character_versions
      FOR EACH ROW EXECUTE FUNCTION character_version_frozen();

    -- A likeness names its person once: later versions of the character depict the same subject.
    CREATE FUNCTION character_version_same_subject() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE earlier uuid;
    BEGIN
      SELECT subject_id INTO earlier FROM character_versions
        WHERE character_id = NEW.character_id AND subject_id IS NOT NULL ORDER BY number LIMIT 1;
      IF earlier IS NOT NULL AND NEW.subject_id IS DISTINCT FROM earlier THEN
        RAISE EXCEPTION 'a later version of a likeness must depict the same subject' USING ERRCODE = '23514';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER character_versions_same_subject BEFORE INSERT ON character_versions
      FOR EACH ROW EXECUTE FUNCTION character_version_same_subject();

    -- Consent: the state machine, terms fixed once the consent has left pending, and its own history.
    CREATE FUNCTION likeness_consent_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'consents are never deleted; revoke instead' USING ERRCODE = '23514';
      END IF;
      IF (NEW.id, NEW.workspace_id, NEW.subject_id, NEW.grantor, NEW.covers_likeness, NEW.covers_voice, NEW.scope,
          NEW.starts_on, NEW.ends_on, NEW.evidence_kind, NEW.evidence_sha256, NEW.created_at, NEW.created_by)
         IS DISTINCT FROM
         (OLD.id, OLD.workspace_id, OLD.subject_id, OLD.grantor, OLD.covers_likeness, OLD.covers_voice, OLD.scope,
          OLD.starts_on, OLD.ends_on, OLD.evidence_kind, OLD.evidence_sha256, OLD.created_at, OLD.created_by)
         AND OLD.status <> 'pending' THEN
        RAISE EXCEPTION 'the terms of a % consent cannot be edited', OLD.status USING ERRCODE = '23514';
      END IF;
      IF NEW.status IS DISTINCT FROM OLD.status AND NOT (
           (OLD.status = 'pending' AND NEW.status IN ('active', 'revoked'))
        OR (OLD.status = 'active' AND NEW.status IN ('suspended', 'revoked'))
        OR (OLD.status = 'suspended' AND NEW.status IN ('active', 'revoked'))) THEN
        RAISE EXCEPTION 'a consent cannot move from % to %', OLD.status, NEW.status USING ERRCODE = '23514';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER likeness_consents_guard BEFORE UPDATE OR DELETE ON likeness_consents
      FOR EACH ROW EXECUTE FUNCTION likeness_consent_guard();

    -- The history is written here, so no writer can change a status without leaving a trace.
    -- The actor and reason come from transaction settings the gateway sets (atelier.actor_id, atelier.reason).
    CREATE FUNCTION likeness_consent_record() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' OR NEW.status IS DISTINCT FROM OLD.status THEN
        INSERT INTO likeness_consent_events (consent_id, workspace_id, from_status, to_status, actor_id, reason)
        VALUES (NEW.id, NEW.workspace_id, CASE WHEN TG_OP = 'UPDATE' THEN OLD.status END, NEW.status,
                NULLIF(current_setting('atelier.actor_id', true), '')::uuid,
                NULLIF(current_setting('atelier.reason', true), ''));
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER likeness_consents_record AFTER INSERT OR UPDATE ON likeness_consents
      FOR EACH ROW EXECUTE FUNCTION likeness_consent_record();

    CREATE FUNCTION history_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = '23514';
    END $$;
    CREATE TRIGGER likeness_consent_events_append_only BEFORE UPDATE OR DELETE ON likeness_consent_events
      FOR EACH ROW EXECUTE FUNCTION history_append_only();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE character_bindings; DROP TABLE character_versions; DROP TABLE character_references; DROP TABLE characters;
    DROP TABLE likeness_consent_events; DROP TABLE likeness_consents; DROP TABLE subjects;
    DROP FUNCTION history_append_only; DROP FUNCTION likeness_consent_record; DROP FUNCTION likeness_consent_guard;
    DROP FUNCTION character_version_same_subject; DROP FUNCTION character_version_frozen;
    ALTER TABLE artifacts DROP CONSTRAINT artifacts_id_workspace;
  `.execute(db);
}
