public import Foundation
public import Postgres

/// Who did something the audit trail records (`audit_events`, Migrations/0019_audit.sql).
public enum AuditActor: Sendable, Equatable {
    case person(UUID)
    case client(UUID)
    /// Nobody known: a failed login, the tenant's operator, the server's own work.
    case nobody

    var ids: (person: UUID?, client: UUID?) {
        switch self {
        case .person(let id): (id, nil)
        case .client(let id): (nil, id)
        case .nobody: (nil, nil)
        }
    }
}

/// The audit trail, written by any module in the transaction of what it records, so that the
/// row commits or rolls back with it. Ids and an action only, never content. The audit module
/// reads it (`auditLog`, `Entry.readBy`, `Entry.exportedAt`).
public enum AuditTrail {
    /// Records `action` (`<thing>.<verb>`: `cmsClient.created`) by `actor` about the person
    /// `person` and the thing `subject`.
    public static func record(
        _ action: String, by actor: AuditActor, person: UUID? = nil, subject: UUID? = nil, in tx: some PostgresQueryable
    ) async throws {
        let (actorPerson, actorClient) = actor.ids
        try await tx.execute(Self.insert, actorPerson, actorClient, action, person, subject)
    }

    /// Records `action` by `actor` once for each entry of `entries` (its author and itself), in
    /// one statement.
    public static func record(
        _ action: String, by actor: AuditActor, entries: [(author: UUID, entry: UUID)], in tx: some PostgresQueryable
    ) async throws {
        guard !entries.isEmpty else { return }
        let (actorPerson, actorClient) = actor.ids
        try await tx.execute(Self.insertEach, actorPerson, actorClient, action, entries.map(\.author), entries.map(\.entry))
    }

    /// $1 actor person, $2 actor client, $3 action, $4 subject person, $5 subject.
    static let insert = """
        insert into audit_events (tenant_id, actor_person_id, actor_client_id, action, subject_person_id, subject_id)
        values (current_tenant_id(), $1, $2, $3, $4, $5)
        """

    /// $1 actor person, $2 actor client, $3 action, $4 the subjects' people, $5 the subjects, in pairs.
    static let insertEach = """
        insert into audit_events (tenant_id, actor_person_id, actor_client_id, action, subject_person_id, subject_id)
        select current_tenant_id(), $1, $2, $3, s.person, s.subject
        from unnest($4::uuid[], $5::uuid[]) as s (person, subject)
        """
}

extension ResolverContext {
    /// Who the audit trail says made this request's changes: its person, its client, or nobody.
    public var auditActor: AuditActor {
        if let client { return .client(client.clientID) }
        return viewer.map { .person($0.personID) } ?? .nobody
    }
}

extension EventContext {
    /// Who the audit trail says made the change of this event: its person, or nobody.
    public var auditActor: AuditActor {
        viewer.map { .person($0.personID) } ?? .nobody
    }
}
