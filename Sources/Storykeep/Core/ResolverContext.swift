public import Foundation
import GraphQL
public import Postgres

/// The person a request runs for, once their session checked out.
public struct Viewer: Sendable, Equatable {
    public var personID: UUID
    public var role: PersonRole
    /// The session the request's token belongs to (what `logout` ends).
    public var sessionID: UUID

    public init(personID: UUID, role: PersonRole, sessionID: UUID) {
        self.personID = personID
        self.role = role
        self.sessionID = sessionID
    }
}

/// What every resolver of a request gets as its `context`: the tenant, who is asking, the
/// database, and the services the domain needs.
///
/// Most requests run in one transaction that the runner (``TenantGraphQL``) opened in the
/// viewer's ``AccountContext``: ``transaction(_:_:)`` hands it out. A request that selects a
/// mutation registered with `ownTransactions` has none: each ``transaction(_:_:)`` is then a
/// short transaction of its own, so that Argon2 runs between them without holding a connection.
public final class ResolverContext: Sendable {
    public let tenant: Tenant
    /// How this request's client reaches the server's other endpoints (media files).
    public let links: any ResourceLinks
    /// The handlers of the tenant's modules, which ``publish(_:in:)`` runs.
    public let events: EventBus
    /// Nil for an anonymous request, and for a client's.
    public let viewer: Viewer?
    /// The case-management client whose token the request carried; nil for a person's or an
    /// anonymous request.
    public let client: ServiceClient?
    /// The request carried a bearer token that is no valid session here: fields that need a
    /// person answer UNAUTHENTICATED (and `me` too, rather than null), so the client knows its
    /// session ended.
    public let presentedInvalidToken: Bool
    public let services: DomainServices
    /// What the request's event handlers noted for its response's fields (``RequestNotes``).
    public let notes = RequestNotes()
    /// The HTTP request's id (`X-Request-Id`, RequestIDMiddleware's), which the audit trail
    /// records; nil where no HTTP request runs this (a live subscription's updates).
    public let requestID: String?
    /// How the language of the request's texts is chosen (``language(on:)``).
    public let languagePreference: RequestLanguage
    private let requestTransaction: PostgresTransaction?
    /// The request's transaction, for its rounds to gather their statements in (ResolverContext+Rounds.swift).
    var requestTransactionForRounds: PostgresTransaction? { requestTransaction }

    public init(
        tenant: Tenant, viewer: Viewer?, presentedInvalidToken: Bool, services: DomainServices,
        transaction: PostgresTransaction?, events: EventBus = EventBus(), links: any ResourceLinks, client: ServiceClient? = nil,
        requestID: String? = nil, language: RequestLanguage? = nil
    ) {
        self.tenant = tenant
        self.events = events
        self.links = links
        self.viewer = viewer
        self.client = client
        self.presentedInvalidToken = presentedInvalidToken
        self.services = services
        self.requestTransaction = transaction
        self.requestID = requestID
        self.languagePreference = language ?? RequestLanguage(languages: tenant.file.languages, acceptLanguage: nil, personLanguage: nil)
    }

    /// The language this request's texts (``LocalizedText``) are shown in; the person's choice is
    /// read in `tx` the first time (``RequestLanguage``).
    public func language(on tx: PostgresTransaction) async throws -> String {
        try await languagePreference.language { viewer == nil ? nil : try await languagePreference.personLanguage?(tx) }
    }

    /// The same, in the request's transaction (or a short one of its own when there is a person
    /// to ask about).
    public func language() async throws -> String {
        try await languagePreference.language { viewer == nil ? nil : try await transaction { tx in try await languagePreference.personLanguage?(tx) } }
    }

    /// The viewer's database context: the person, the client, or the tenant alone when anonymous.
    public var accountContext: AccountContext {
        if let client { return .client(tenantID: tenant.id, clientID: client.clientID) }
        return viewer.map { .person(tenantID: tenant.id, personID: $0.personID, role: $0.role) } ?? .anonymous(tenantID: tenant.id)
    }

    /// The viewer, or UNAUTHENTICATED.
    public func requireViewer() throws -> Viewer {
        guard let viewer else {
            throw presentedInvalidToken
                ? GraphQLError.unauthenticated("Your session has ended. Please log in again.") : GraphQLError.unauthenticated()
        }
        return viewer
    }

    /// Runs `body` in the request's transaction, or, without one, in a transaction of its own in
    /// `context` (by default the viewer's), rolled back if `body` throws. In the request's
    /// transaction another `context` holds for `body` only: the viewer's is set again after it.
    public func transaction<T: Sendable>(
        _ context: AccountContext? = nil, _ body: (PostgresTransaction) async throws -> T
    ) async throws -> T {
        guard let tx = requestTransaction else {
            return try await services.pool.transaction(settings: services.requestSettings(context ?? accountContext), body)
        }
        guard let context, context != accountContext else { return try await body(tx) }
        try await context.enter(on: tx)
        let result: Result<T, any Error>
        do { result = .success(try await body(tx)) } catch { result = .failure(error) }
        try await accountContext.enter(on: tx)
        return try result.get()
    }

    /// The same, with `statements` sent with BEGIN and the context's settings in one round trip
    /// (in the request's transaction, together after the context is entered): `body` gets their
    /// rows, in order, and the transaction.
    public func transaction<T: Sendable>(
        _ context: AccountContext? = nil, beginningWith statements: [PostgresStatement],
        _ body: ([PostgresRows], PostgresTransaction) async throws -> T
    ) async throws -> T {
        guard requestTransaction != nil else {
            return try await services.pool.transaction(
                settings: services.requestSettings(context ?? accountContext), beginningWith: statements, body)
        }
        return try await transaction(context) { tx in try await body(try await tx.query(together: statements), tx) }
    }

    /// Runs `body`, which only reads and may read a moment-old copy (the agency's figures, the
    /// export's documents), in a transaction of its own on the standby of `database.readUrl`, in
    /// the viewer's context, as on the primary; without a read pool, as ``transaction(_:_:)``.
    public func staleReadTransaction<T: Sendable>(_ body: (PostgresTransaction) async throws -> T) async throws -> T {
        guard let readPool = services.readPool else { return try await transaction(nil, body) }
        return try await readPool.transaction(settings: services.requestSettings(accountContext), body)
    }

    /// Publishes `event` to the handlers of the tenant's modules, which run now, in `tx` (the
    /// transaction of the change), as this request's viewer.
    public func publish<Event: DomainEvent>(_ event: Event, in tx: PostgresTransaction) async throws {
        try await events.publish(
            event, context: EventContext(
                tenant: tenant, viewer: viewer, services: services, transaction: tx, bus: events, notes: notes, requestID: requestID))
    }
}
