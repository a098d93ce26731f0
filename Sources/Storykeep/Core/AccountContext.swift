import Foundation
import Postgres

/// A person's role in their agency (the `person_role` type of Migrations/0002_accounts.sql).
public enum PersonRole: String, Sendable, Hashable, CaseIterable, Codable {
    case youngPerson = "YOUNG_PERSON"
    case carer = "CARER"
    case socialWorker = "SOCIAL_WORKER"
    case agencyAdmin = "AGENCY_ADMIN"
}

/// Who a transaction runs for, as the policies of Migrations/0002_accounts.sql read it (see
/// "WHO IS ASKING" there): the transaction-local settings `storykeep.tenant_id`, `person_id`,
/// `role`, and the one key a step before authentication may look for.
///
/// Every context sets all five settings, empty ones included, so that moving a transaction from
/// one context to the next (``enter(on:)``, e.g. from `.login` to `.person` once the password
/// checked out) also clears what the previous one could see.
public enum AccountContext: Sendable, Equatable {
    /// A request of nobody yet (no token): the tenant alone, which sees no row of these tables.
    case anonymous(tenantID: UUID)
    /// Logging in with a username or email, as typed: sees that person, their credentials and the
    /// failed logins of that name only.
    case login(tenantID: UUID, loginName: String)
    /// Authenticating a request's bearer token: sees the live session with that hash and its person.
    case authentication(tenantID: UUID, tokenHash: [UInt8])
    /// Redeeming an activation code: sees the code with that hash.
    case activation(tenantID: UUID, codeHash: [UInt8])
    /// An authenticated person.
    case person(tenantID: UUID, personID: UUID, role: PersonRole)
    /// An operator at the command line acting as the tenant's admin (`storykeep user create`
    /// makes a tenant's first admin this way): admin rights, and no person.
    case tenantOperator(tenantID: UUID)

    /// The settings for `PostgresPool.transaction(settings:)`.
    public var settings: [String: String] {
        var tenant: UUID, person = "", role: String, loginName = "", secretHash = ""
        switch self {
        case .anonymous(let tenantID):
            (tenant, role) = (tenantID, "")
        case .login(let tenantID, let name):
            (tenant, role, loginName) = (tenantID, "LOGIN", name)
        case .authentication(let tenantID, let hash):
            (tenant, role, secretHash) = (tenantID, "AUTHENTICATION", Crypto.hex(hash))
        case .activation(let tenantID, let hash):
            (tenant, role, secretHash) = (tenantID, "ACTIVATION", Crypto.hex(hash))
        case .person(let tenantID, let personID, let personRole):
            (tenant, person, role) = (tenantID, personID.uuidString, personRole.rawValue)
        case .tenantOperator(let tenantID):
            (tenant, role) = (tenantID, PersonRole.agencyAdmin.rawValue)
        }
        return [
            "storykeep.tenant_id": tenant.uuidString, "storykeep.person_id": person, "storykeep.role": role,
            "storykeep.login_name": loginName, "storykeep.secret_hash": secretHash,
        ]
    }

    /// Switches the transaction `tx` to this context, transaction-locally.
    public func enter(on tx: some PostgresQueryable) async throws {
        let settings = settings.sorted { $0.key < $1.key }
        let calls = settings.indices.map { "set_config($\(2 * $0 + 1), $\(2 * $0 + 2), true)" }
        let parameters: [(any PostgresEncodable)?] = settings.flatMap { [$0.key, $0.value] }
        try await tx.execute("select " + calls.joined(separator: ", "), parameters: parameters)
    }
}
