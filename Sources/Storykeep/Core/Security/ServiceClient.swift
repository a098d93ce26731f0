public import Foundation
public import Postgres

/// A case-management client (a service account of the export module) whose bearer token a
/// request carried: it acts for no person, and reaches only the fields registered for clients
/// (``FieldAccess/clients``).
public struct ServiceClient: Sendable, Equatable {
    /// The client's id, which it authenticates with (`client_id`).
    public var clientID: UUID

    public init(clientID: UUID) {
        self.clientID = clientID
    }
}

/// Finds the client whose live token a request presented, when the token is no person's
/// session: a module's (``StorykeepModule/clientAuthentication``).
public protocol ClientAuthentication: Sendable {
    /// The client whose live token is `token` at `now`, with `tx` switched to its context
    /// (``AccountContext/client(tenantID:clientID:)``); nil, with `tx` in the tenant's anonymous context,
    /// when there is none.
    func authenticate(_ token: SessionToken, tenantID: UUID, at now: Date, in tx: PostgresTransaction) async throws -> ServiceClient?
}
