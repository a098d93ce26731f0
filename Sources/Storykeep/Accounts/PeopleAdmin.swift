public import Foundation
import StorykeepCore
import GraphQL
public import Postgres

/// A person to add, as an agency admin (or `storykeep user create`) describes them.
public struct NewPerson: Sendable {
    public var role: PersonRole
    public var displayName: String
    public var username: String?
    public var email: String?
    public var externalRef: String?

    public init(role: PersonRole, displayName: String, username: String? = nil, email: String? = nil, externalRef: String? = nil) {
        self.role = role
        self.displayName = displayName
        self.username = username
        self.email = email
        self.externalRef = externalRef
    }

    /// From the GraphQL input `CreatePersonInput`.
    init(input: GraphQLObject) throws {
        guard let role = input["role"]?.stringValue.flatMap(PersonRole.init(rawValue:)) else {
            throw GraphQLError.badUserInput(field: "input.role", "Unknown role.")
        }
        self.init(
            role: role, displayName: input["displayName"]?.stringValue ?? "", username: input["username"]?.stringValue,
            email: input["email"]?.stringValue, externalRef: input["externalRef"]?.stringValue)
    }

    /// Checked and trimmed; BAD_USER_INPUT names the `input.` field at fault.
    func checked() throws -> NewPerson {
        var person = self
        person.displayName = try PeopleInput.text(
            displayName, field: "input.displayName", what: "A name", limit: .personDisplayName)
        person.username = try username.map { try PeopleInput.username($0, field: "input.username") }
        person.email = try email.map { try PeopleInput.email($0, field: "input.email") }
        person.externalRef = try externalRef.map {
            try PeopleInput.text($0, field: "input.externalRef", what: "A case reference", limit: .externalRef)
        }
        if role != .youngPerson && person.email == nil {
            throw GraphQLError.badUserInput(field: "input.email", "Adults log in with their email: please give one.")
        }
        if person.username == nil && person.email == nil {
            throw GraphQLError.badUserInput(field: "input.username", "A young person needs a username (or an email) to log in.")
        }
        return person
    }
}

/// A person just added, or given a new code: the code exists only here (it is stored hashed).
public struct IssuedActivation: Sendable {
    public var person: PersonRecord
    public var code: ActivationCode
    public var expiresAt: Date
    /// The approved reset the code is for; nil for an onboarding code.
    var passwordReset: PasswordResetRecord?

    /// The GraphQL type `ActivationPayload`.
    func graphQLValue(termsVersion: String) -> GraphQLValue {
        .object([
            "person": person.graphQLValue(termsVersion: termsVersion),
            "activationCode": .string(code.displayText),
            "activationCodeExpiresAt": .string(DateTimeScalar.string(expiresAt)),
            "passwordReset": passwordReset?.graphQLValue(termsVersion: termsVersion) ?? .null,
        ])
    }
}

/// What agency admins do to people. Each function runs in a transaction of an admin's context
/// (`AGENCY_ADMIN`, or ``AccountContext/tenantOperator(tenantID:)`` at the command line).
public enum PeopleAdmin {
    /// How long an activation code works.
    public static let activationCodeLifetimeDays = 7

    /// Adds a person and issues their first activation code.
    public static func create(_ person: NewPerson, in tx: some PostgresQueryable) async throws -> IssuedActivation {
        let person = try person.checked()
        return try await issueCode(for: try await insert(person, in: tx), in: tx)
    }

    /// `storykeep user create` (without a password): ``create(_:in:)`` as the tenant's operator,
    /// recorded in the audit trail as `person.created` by nobody (the operator is no person of the
    /// agency).
    public static func createAsOperator(_ person: NewPerson, in tx: some PostgresQueryable) async throws -> IssuedActivation {
        let issued = try await create(person, in: tx)
        try await AuditTrail.record(.personCreated, by: .nobody, person: issued.person.id, request: nil, in: tx)
        return issued
    }

    /// `createPerson`: ``create(_:in:)`` for a logged-in admin, who adds people of every role but
    /// their own. Admins are added by the service's operator (`storykeep user create`), so that no
    /// admin can make a second admin account to approve their own password resets with
    /// (``PasswordResets``); the policy `people_insert_admins` holds the same.
    static func createForAdmin(_ person: NewPerson, in tx: some PostgresQueryable) async throws -> IssuedActivation {
        guard person.role != .agencyAdmin else {
            throw GraphQLError.forbidden(
                "Agency admins are added by the service's operator, so that a password reset always takes two admins.")
        }
        return try await create(person, in: tx)
    }

    /// The person already in the tenant with `person`'s username or email, if any (compared as
    /// logins compare them, case folded). Throws BAD_USER_INPUT when that person has another role:
    /// they are not the one described.
    public static func existing(_ person: NewPerson, in tx: some PostgresQueryable) async throws -> PersonRecord? {
        let person = try person.checked()
        let rows = try await tx.query(PeopleStatements.personByLogin, person.username, person.email)
        guard let found = try rows.first.map(PersonRecord.init(row:)) else { return nil }
        guard found.role == person.role else {
            let sameUsername = person.username != nil && found.username?.lowercased() == person.username?.lowercased()
            throw GraphQLError.badUserInput(
                field: sameUsername ? "input.username" : "input.email",
                "Someone in this agency already has this \(sameUsername ? "username" : "email"), as \(found.role.rawValue).")
        }
        return found
    }

    /// A person set up at the command line with a password the operator chose: what
    /// ``provision(_:password:tenant:hasher:pool:ifAbsent:)`` did.
    public struct Provisioned: Sendable {
        public var person: PersonRecord
        /// False when `ifAbsent` found them already there (and changed nothing).
        public var created: Bool
    }

    /// Adds a person who can log in at once with `password`, instead of an activation code
    /// (`storykeep user create --password-stdin`, e.g. the demo people of `make run`). The
    /// password meets the tenant's policy and is hashed by `hasher`, as `activateAccount` does it,
    /// before any connection is taken. With `ifAbsent`, a person of the same role who already has
    /// the username or email is left as they are (their password included) and returned.
    public static func provision(
        _ person: NewPerson, password: String, tenant: Tenant, hasher: PasswordHasher, pool: PostgresPool, ifAbsent: Bool
    ) async throws -> Provisioned {
        let person = try person.checked()
        let operatorContext = AccountContext.tenantOperator(tenantID: tenant.id)
        if ifAbsent, let found = try await pool.transaction(settings: operatorContext.settings, { tx in try await existing(person, in: tx) }) {
            return Provisioned(person: found, created: false)
        }
        try PeopleInput.newPassword(password, policy: tenant.file.passwords, field: "password")
        let hash = try await hasher.hash(password)
        let created = try await pool.transaction(settings: operatorContext.settings) { tx in
            let record = try await insert(person, in: tx)
            try await AuditTrail.record(.personCreated, by: .nobody, person: record.id, request: nil, in: tx)
            // Credentials are written only in the person's own context, as activation does.
            try await AccountContext.person(tenantID: tenant.id, personID: record.id, role: record.role).enter(on: tx)
            try await Login.setPassword(hash: hash, personID: record.id, in: tx)
            return record
        }
        return Provisioned(person: created, created: true)
    }

    private static func insert(_ person: NewPerson, in tx: some PostgresQueryable) async throws -> PersonRecord {
        let rows = try await PeopleInput.uniquely {
            try await tx.query(
                PeopleStatements.insert,
                person.role.rawValue, person.displayName, person.username, person.email, person.externalRef)
        }
        return try PersonRecord(row: rows[0])
    }

    /// `issueActivationCode(personId)`: a new onboarding code for someone who has never set a
    /// password; their unused codes stop working. Anyone who has a password needs a reset that a
    /// second member of staff approves (``PasswordResets``).
    static func reissueCode(personID: String, in tx: some PostgresQueryable) async throws -> IssuedActivation {
        let person = try await find(personID, in: tx)
        guard !person.disabled else {
            throw GraphQLError.badUserInput(field: "personId", "This person is switched off: they cannot log in.")
        }
        let hasPassword = GraphQLError.badUserInput(
            field: "personId",
            "\(person.displayName) has set a password already: a new one needs a second member of staff. "
                + "Ask for it with requestPasswordReset; another admin approves it.")
        guard person.activatedAt == nil else { throw hasPassword }
        try await expireCodes(personID: person.id, in: tx)
        do {
            return try await issueCode(for: person, in: tx)
        } catch let error as PostgresError where error.sqlState == PostgresError.SQLState.insufficientPrivilege {
            // activation_codes_onboarding_or_reset: they set their password a moment ago.
            throw hasPassword
        }
    }

    /// Expires the person's unused codes now (but after they were made, as activation_codes_expiry wants).
    static func expireCodes(personID: UUID, in tx: some PostgresQueryable) async throws {
        try await tx.execute(PeopleStatements.expireCodes, personID)
    }

    /// Switches the person off: no more logins, their sessions and codes end now.
    static func disable(personID: String, viewer: Viewer, in tx: some PostgresQueryable) async throws -> PersonRecord {
        let person = try await find(personID, in: tx)
        guard person.id != viewer.personID else {
            throw GraphQLError.badUserInput(field: "personId", "You cannot switch yourself off.")
        }
        try await tx.execute(PeopleStatements.disable, person.id)
        try await Sessions.revoke(personID: person.id, in: tx)
        try await expireCodes(personID: person.id, in: tx)
        guard let disabled = try await PersonRecord.find(person.id, in: tx) else { throw GraphQLError.internal() }
        return disabled
    }

    /// `people(role, first, after)`: oldest first, by creation time then id; each edge's cursor
    /// is its person's position, made by `cursors`, which also reads `after`.
    static func page(
        role: String?, first: Int, after: String?, cursors: Cursors, termsVersion: String, in tx: some PostgresQueryable
    ) async throws -> GraphQLValue {
        guard (1...100).contains(first) else { throw GraphQLError.badUserInput(field: "first", "Ask for 1 to 100 people at a time.") }
        let position = try cursors.position(after: after, of: PersonPosition.self)
        let rows = try await tx.query(PeopleStatements.page, role, position?.moment, position?.id, first + 1)
        var edges: [GraphQLValue] = []
        var endCursor: GraphQLValue = .null
        for row in rows.prefix(first) {
            let person = try PersonRecord(row: row)
            let createdAt = try row.decode(PostgresTimestamp.self, at: PersonRecord.columnCount)
            let cursor = GraphQLValue.string(cursors.cursor(PersonPosition(moment: createdAt, id: person.id)))
            edges.append(.object(["cursor": cursor, "node": person.graphQLValue(termsVersion: termsVersion)]))
            endCursor = cursor
        }
        return .object([
            "edges": .list(edges),
            "pageInfo": .object(["hasNextPage": .bool(rows.count > first), "endCursor": endCursor]),
        ])
    }

    /// The person `id` names, or BAD_USER_INPUT naming `personId`.
    static func find(_ id: String, in tx: some PostgresQueryable) async throws -> PersonRecord {
        guard let uuid = UUID(uuidString: id), let person = try await PersonRecord.find(uuid, in: tx) else {
            throw GraphQLError.badUserInput(field: "personId", "There is no such person in this agency.")
        }
        return person
    }

    /// A new code for `person`: an onboarding code, or with `passwordReset`, the code of that
    /// approved reset (the policy `activation_codes_onboarding_or_reset` admits no other).
    static func issueCode(
        for person: PersonRecord, passwordReset: UUID? = nil, lifetimeHours: Int = activationCodeLifetimeDays * 24,
        in tx: some PostgresQueryable
    ) async throws -> IssuedActivation {
        let code = try ActivationCode.generate()
        let rows = try await tx.query(PeopleStatements.issueCode, person.id, code.storageHash, lifetimeHours, passwordReset)
        return IssuedActivation(person: person, code: code, expiresAt: try rows[0].decode(Date.self, at: 0))
    }
}
