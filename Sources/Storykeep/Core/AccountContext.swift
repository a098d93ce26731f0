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
    /// Logging in with a passkey (Migrations/0045_accounts_passkeys.sql): sees the challenge with
    /// that hash and the passkey with that credential id.
    case passkeyLogin(tenantID: UUID, challengeHash: [UInt8], credentialID: [UInt8])
    /// An authenticated person.
    case person(tenantID: UUID, personID: UUID, role: PersonRole)
    /// An operator at the command line acting as the tenant's admin (`storykeep user create`
    /// makes a tenant's first admin this way): admin rights, and no person.
    case tenantOperator(tenantID: UUID)
    /// A case-management client asking for a token with its secret (`POST oauth/token`): sees
    /// that client (its id is the context's key, in `storykeep.login_name`) and writes its tokens.
    case clientLogin(tenantID: UUID, clientID: UUID)
    /// An authenticated case-management client (role `CMS`, no person; its id in
    /// `storykeep.login_name`): sees itself and what the tenant's export scope lets it export,
    /// nothing else (Migrations/0017_export.sql, 0018_export_feed.sql).
    case client(tenantID: UUID, clientID: UUID)
    /// The export module's handlers finding the entries shared in an assignment that just ended
    /// (role `EXPORT_LOG`): sees the tenant's standing shares, and nothing else.
    case exportLog(tenantID: UUID)

    /// The settings for `PostgresPool.transaction(settings:)`, with PostgreSQL's JIT off: the
    /// row-level security policies make plans of hundreds of expressions, which JIT took seconds
    /// to compile whenever a plan's estimate crossed `jit_above_cost` (createEntry's input check
    /// with a custom plan, 7 to 45 s on a tenant of 20,000 entries; 12 ms without JIT).
    public var settings: [String: String] {
        let values = values
        return [
            "storykeep.tenant_id": values.tenant, "storykeep.person_id": values.person, "storykeep.role": values.role,
            "storykeep.login_name": values.loginName, "storykeep.secret_hash": values.secretHash, "jit": "off",
        ]
    }

    /// Switches the transaction `tx` to this context, transaction-locally: every setting, in
    /// one statement.
    public func enter(on tx: some PostgresQueryable) async throws {
        let values = values
        try await tx.execute(
            Self.enterStatement, values.tenant, values.person, values.role, values.loginName, values.secretHash)
    }

    /// Sets the settings of a context: $1 tenant id, $2 person id, $3 role, $4 login name,
    /// $5 secret hash (empty where the context has none).
    static let enterStatement = """
        select set_config('storykeep.tenant_id', $1, true), set_config('storykeep.person_id', $2, true),
               set_config('storykeep.role', $3, true), set_config('storykeep.login_name', $4, true),
               set_config('storykeep.secret_hash', $5, true)
        """

    /// The value of each setting, empty where the context has none.
    private var values: (tenant: String, person: String, role: String, loginName: String, secretHash: String) {
        switch self {
        case .anonymous(let tenantID):
            (tenantID.uuidString, "", "", "", "")
        case .login(let tenantID, let name):
            (tenantID.uuidString, "", "LOGIN", name, "")
        case .authentication(let tenantID, let hash):
            (tenantID.uuidString, "", "AUTHENTICATION", "", Crypto.hex(hash))
        case .activation(let tenantID, let hash):
            (tenantID.uuidString, "", "ACTIVATION", "", Crypto.hex(hash))
        case .passkeyLogin(let tenantID, let challengeHash, let credentialID):
            (tenantID.uuidString, "", "PASSKEY", Crypto.hex(credentialID), Crypto.hex(challengeHash))
        case .person(let tenantID, let personID, let personRole):
            (tenantID.uuidString, personID.uuidString, personRole.rawValue, "", "")
        case .tenantOperator(let tenantID):
            (tenantID.uuidString, "", PersonRole.agencyAdmin.rawValue, "", "")
        case .clientLogin(let tenantID, let clientID):
            (tenantID.uuidString, "", "CLIENT_LOGIN", clientID.uuidString.lowercased(), "")
        case .client(let tenantID, let clientID):
            (tenantID.uuidString, "", "CMS", clientID.uuidString.lowercased(), "")
        case .exportLog(let tenantID):
            (tenantID.uuidString, "", "EXPORT_LOG", "", "")
        }
    }
}
