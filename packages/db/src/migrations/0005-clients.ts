import { type Kysely, sql } from 'kysely';

/**
 * Clients (the businesses an agency works for), their contacts and status history, and the client link
 * on projects. As with characters, the rules hold for every writer: slugs and payment-processor customers
 * unique among live clients, billing in range, status history written by the database and append-only,
 * and no link crossing workspaces.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE clients (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id),
      name text NOT NULL CHECK (length(name) > 0),
      slug text NOT NULL CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
      status text NOT NULL CHECK (status IN ('lead', 'active', 'paused', 'past')),
      status_note text,
      billing_version integer NOT NULL DEFAULT 0 CHECK (billing_version >= 0),
      billing_model text CHECK (billing_model IN ('retainer', 'project', 'hourly', 'usage')),
      billing_amount_cents bigint CHECK (billing_amount_cents >= 0),
      billing_currency text CHECK (billing_currency ~ '^[A-Z]{3}$'),
      billing_period text CHECK (billing_period IN ('month', 'quarter', 'year', 'one_off')),
      billing_scope jsonb CHECK (billing_scope IS NULL OR jsonb_typeof(billing_scope) = 'array'),
      renews_on date,
      payment_customer_id text,
      notes text,
      request_id text,
      request_fingerprint text,
      etag text NOT NULL,
      created_by uuid,
      archived_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (id, workspace_id),
      CONSTRAINT client_billing_whole CHECK (
        (billing_model IS NULL) = (billing_amount_cents IS NULL)
        AND (billing_model IS NULL) = (billing_currency IS NULL)
        AND (billing_model IS NULL) = (billing_period IS NULL))
    );
    CREATE UNIQUE INDEX clients_live_slug ON clients (workspace_id, slug) WHERE archived_at IS NULL;
    CREATE UNIQUE INDEX clients_live_customer ON clients (workspace_id, payment_customer_id) WHERE archived_at IS NULL AND payment_customer_id IS NOT NULL;
    CREATE UNIQUE INDEX clients_request_id ON clients (workspace_id, request_id) WHERE request_id IS NOT NULL;

    CREATE TABLE client_events (
      id bigserial PRIMARY KEY,
      client_id uuid NOT NULL,
      workspace_id uuid NOT NULL,
      from_status text,
      to_status text NOT NULL,
      status_note text,
      actor_id uuid,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      FOREIGN KEY (client_id, workspace_id) REFERENCES clients (id, workspace_id) ON DELETE RESTRICT
    );
    CREATE INDEX client_events_client ON client_events (client_id, id DESC);

    CREATE TABLE client_contacts (
      id uuid PRIMARY KEY,
      client_id uuid NOT NULL,
      workspace_id uuid NOT NULL,
      name text NOT NULL CHECK (length(name) > 0),
      email text NOT NULL CHECK (email ~ '^[^@\\s]+@[^@\\s]+$'),
      role text,
      approves_work boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      FOREIGN KEY (client_id, workspace_id) REFERENCES clients (id, workspace_id) ON DELETE CASCADE
    );
    CREATE UNIQUE INDEX client_contacts_email ON client_contacts (client_id, lower(email));

    -- A project belongs to at most one client, of its own workspace.
    ALTER TABLE projects ADD CONSTRAINT projects_client_fk FOREIGN KEY (client_id, workspace_id) REFERENCES clients (id, workspace_id);
    CREATE INDEX projects_client ON projects (client_id) WHERE client_id IS NOT NULL;

    CREATE FUNCTION client_record_status() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' OR NEW.status IS DISTINCT FROM OLD.status OR NEW.status_note IS DISTINCT FROM OLD.status_note THEN
        INSERT INTO client_events (client_id, workspace_id, from_status, to_status, status_note, actor_id)
        VALUES (NEW.id, NEW.workspace_id, CASE WHEN TG_OP = 'UPDATE' THEN OLD.status END, NEW.status, NEW.status_note,
                NULLIF(current_setting('atelier.actor_id', true), '')::uuid);
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER clients_record_status AFTER INSERT OR UPDATE ON clients
      FOR EACH ROW EXECUTE FUNCTION client_record_status();

    -- History is never rewritten, and a client that has any is never deleted (DELETE archives).
    CREATE TRIGGER client_events_append_only BEFORE UPDATE OR DELETE ON client_events
      FOR EACH ROW EXECUTE FUNCTION history_append_only();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE projects DROP CONSTRAINT projects_client_fk;
    DROP TABLE client_contacts; DROP TABLE client_events; DROP TABLE clients;
    DROP FUNCTION client_record_status;
  `.execute(db);
}
