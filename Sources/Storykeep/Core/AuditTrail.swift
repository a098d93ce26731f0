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
/// reads it (`auditLog`, `Entry.readBy`, `Entry.exportedAt`). In a request, write it with
/// ``ResolverContext/audit(_:by:person:subject:in:)`` (or ``EventContext``'s), which add the
/// request's actor and id.
public enum AuditTrail {
    /// Records `action` by `actor` about the person `person` and the thing `subject`, made by the
    /// request `request` (its `X-Request-Id`; nil at the command line and in background work).
    public static func record(
        _ action: AuditAction, by actor: AuditActor, person: UUID? = nil, subject: UUID? = nil, request: String?,
        in tx: some PostgresQueryable
    ) async throws {
        let (actorPerson, actorClient) = actor.ids
        try await tx.execute(Self.insert, actorPerson, actorClient, action.rawValue, person, subject, request)
    }

    /// Records `action` by `actor` once for each entry of `entries` (its author and itself), in
    /// one statement.
    public static func record(
        _ action: AuditAction, by actor: AuditActor, entries: [(author: UUID, entry: UUID)], request: String?,
        in tx: some PostgresQueryable
    ) async throws {
        guard !entries.isEmpty else { return }
        let (actorPerson, actorClient) = actor.ids
        try await tx.execute(
            Self.insertEach, actorPerson, actorClient, action.rawValue, entries.map(\.author), entries.map(\.entry), request)
    }

    /// Records `action` by `actor` once for each of `subjects`, about no person it names, in one
    /// statement.
    public static func record(
        _ action: AuditAction, by actor: AuditActor, subjects: [UUID], request: String?, in tx: some PostgresQueryable
    ) async throws {
        guard !subjects.isEmpty else { return }
        let (actorPerson, actorClient) = actor.ids
        try await tx.execute(Self.insertSubjects, actorPerson, actorClient, action.rawValue, subjects, request)
    }

    /// $1 actor person, $2 actor client, $3 action, $4 subject person, $5 subject, $6 request id.
    static let insert = """
        insert into audit_events (tenant_id, actor_person_id, actor_client_id, action, subject_person_id, subject_id, request_id)
        values (current_tenant_id(), $1, $2, $3, $4, $5, $6)
        """

    /// $1 actor person, $2 actor client, $3 action, $4 the subjects' people, $5 the subjects, in
    /// pairs, $6 request id.
    static let insertEach = """
        insert into audit_events (tenant_id, actor_person_id, actor_client_id, action, subject_person_id, subject_id, request_id)
        select current_tenant_id(), $1, $2, $3, s.person, s.subject, $6
        from unnest($4::uuid[], $5::uuid[]) as s (person, subject)
        """

    /// $1 actor person, $2 actor client, $3 action, $4 the subjects, $5 request id.
    static let insertSubjects = """
        insert into audit_events (tenant_id, actor_person_id, actor_client_id, action, subject_id, request_id)
        select current_tenant_id(), $1, $2, $3, s.subject, $5
        from unnest($4::uuid[]) as s (subject)
        """
}

extension ResolverContext {
    /// Who the audit trail says made this request's changes: its person, its client, or nobody.
    public var auditActor: AuditActor {
        if let client { return .client(client.clientID) }
        return viewer.map { .person($0.personID) } ?? .nobody
    }

    /// Records `action` in `tx`, by `actor` (this request's, ``auditActor``, unless given), with
    /// this request's id.
    public func audit(
        _ action: AuditAction, by actor: AuditActor? = nil, person: UUID? = nil, subject: UUID? = nil, in tx: some PostgresQueryable
    ) async throws {
        try await AuditTrail.record(action, by: actor ?? auditActor, person: person, subject: subject, request: requestID, in: tx)
    }

    /// Records `action` in `tx` once for each entry of `entries`, by this request's actor, with its id.
    public func audit(_ action: AuditAction, entries: [(author: UUID, entry: UUID)], in tx: some PostgresQueryable) async throws {
        try await AuditTrail.record(action, by: auditActor, entries: entries, request: requestID, in: tx)
    }

    /// Records `action` in `tx` once for each of `subjects`, by this request's actor, with its id.
    public func audit(_ action: AuditAction, subjects: [UUID], in tx: some PostgresQueryable) async throws {
        try await AuditTrail.record(action, by: auditActor, subjects: subjects, request: requestID, in: tx)
    }
}

extension EventContext {
    /// Who the audit trail says made the change of this event: its person, or nobody.
    public var auditActor: AuditActor {
        viewer.map { .person($0.personID) } ?? .nobody
    }

    /// Records `action` in the event's transaction, by `actor` (the change's, ``auditActor``,
    /// unless given), with the id of the request that published the event.
    public func audit(_ action: AuditAction, by actor: AuditActor? = nil, person: UUID? = nil, subject: UUID? = nil) async throws {
        try await AuditTrail.record(action, by: actor ?? auditActor, person: person, subject: subject, request: requestID, in: transaction)
    }
}
