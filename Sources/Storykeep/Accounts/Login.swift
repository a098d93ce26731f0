import Foundation
import StorykeepCore
import GraphQL
import Postgres

/// Logging in, activating an account, changing a password: the three steps that run Argon2, so
/// each reads in one short transaction, hashes on the ``BoundedWorkerPool`` holding no database
/// connection, and writes in another short transaction.
package enum Login {
    /// What a successful login returns (the GraphQL type `LoginPayload`).
    static func payload(token: SessionToken, expiresAt: Date, person: PersonRecord, tenant: Tenant) -> GraphQLValue {
        .object([
            "token": .string(token.text),
            "expiresAt": .string(DateTimeScalar.string(expiresAt)),
            "person": person.graphQLValue(termsVersion: tenant.file.termsVersion),
        ])
    }

    static let wrongCredentials = "That username or password is not right."

    /// In a LOGIN transaction: refuses the attempt with LOCKED_OUT if the name must wait, else
    /// counts it as a failure in advance (a success resets the count) and returns the count.
    ///
    /// Counting before Argon2, on the row locked by the read, means concurrent attempts on one
    /// name are judged in turn: a burst of guesses gets no more tries than a sequence would.
    static func admitAttempt(in tx: PostgresTransaction, lockout: Lockout, now: Date) async throws -> Int {
        let record = try await LoginFailures.read(in: tx, locking: true)
        if case .locked(let seconds) = lockout.decide(failures: record.failures, lastFailureAt: record.lastFailureAt, now: now) {
            throw GraphQLError.lockedOut(retryAfterSeconds: seconds)
        }
        return try await LoginFailures.recordFailure(in: tx, at: now).failures
    }

    /// The time of an attempt, in whole microseconds as PostgreSQL keeps it: the back-off is then
    /// judged against exactly the time recorded.
    static func attemptTime(_ services: DomainServices) -> Date {
        Date(timeIntervalSinceReferenceDate: (services.now().timeIntervalSinceReferenceDate * 1e6).rounded() / 1e6)
    }

    /// The answer to a wrong password (or a name nobody has), with the wait before the next
    /// attempt when there is one.
    static func wrongPassword(_ error: GraphQLError, failures: Int, lockout: Lockout) -> GraphQLError {
        var error = error
        let wait = lockout.backoffSeconds(afterFailures: failures)
        if wait > 0 { error.extensions?.append("retryAfterSeconds", .int(wait)) }
        return error
    }

    /// `login(username, password)`: see the SDL. Unknown names and wrong passwords cost the same
    /// Argon2 time and get the same answer, and count as failures of the name alike.
    static func login(username: String, password: String, context: ResolverContext) async throws -> GraphQLValue {
        let (tenant, services) = (context.tenant, context.services)
        let name = username.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw GraphQLError.badUserInput(field: "username", "Please enter your username or email.") }
        guard TextLimit.loginName.admits(name) else { throw GraphQLError.badUserInput(field: "username", "That is too long for a username or email.") }
        guard password.utf8.count <= PasswordHasher.maxPasswordBytes else {
            throw GraphQLError.badUserInput(field: "password", "That password is too long.")
        }
        let lockout = Lockout(freeAttempts: tenant.file.lockout.freeAttempts, maxBackoffSeconds: tenant.file.lockout.maxBackoffSeconds)
        let loginContext = AccountContext.login(tenantID: tenant.id, loginName: name)
        let now = attemptTime(services)

        struct Account: Sendable {
            var personID: UUID, role: PersonRole, disabled: Bool, passwordHash: String?
        }
        // Through the gate (see AsyncGate): a burst of logins takes a few connections, not the pool.
        let (failures, account): (Int, Account?) = try await services.loginGate.withPermit {
            try await context.transaction(loginContext) { tx in
                let failures = try await admitAttempt(in: tx, lockout: lockout, now: now)
                let rows = try await tx.query(LoginStatements.account)
                guard let row = rows.first, let role = PersonRole(rawValue: try row.decode(String.self, at: 1)) else {
                    return (failures, nil)
                }
                return (
                    failures,
                    Account(
                        personID: try row.decode(UUID.self, at: 0), role: role, disabled: try row.decode(Bool.self, at: 2),
                        passwordHash: try row.decode(String?.self, at: 3))
                )
            }
        }

        // Argon2, holding no connection; without an account (or a password yet), the dummy hash.
        let verification = try await services.hasher.verify(password, against: account?.passwordHash)
        guard verification.ok, let account else {
            throw wrongPassword(.unauthenticated(wrongCredentials), failures: failures, lockout: lockout)
        }
        guard !account.disabled else {
            throw GraphQLError.unauthenticated("This account has been switched off. Please talk to your agency.")
        }
        let newHash = verification.needsRehash ? try await services.hasher.hash(password) : nil

        let person = AccountContext.person(tenantID: tenant.id, personID: account.personID, role: account.role)
        return try await context.transaction(loginContext) { tx in
            try await LoginFailures.reset(in: tx)
            try await person.enter(on: tx)
            if let newHash {
                try await tx.execute(LoginStatements.replacePassword, account.personID, newHash)
            }
            let (token, expiresAt) = try await Sessions.start(in: tx, personID: account.personID, policy: services.sessions)
            guard let record = try await PersonRecord.find(account.personID, in: tx) else { throw GraphQLError.internal() }
            return payload(token: token, expiresAt: expiresAt, person: record, tenant: tenant)
        }
    }

    static let invalidCode = "That code is not right, or it has expired. Please ask your agency for a new one."

    /// `activateAccount(code, username, password)`: sets the password (and the username, if
    /// given) of the person the code was issued for, spends the code, ends their other sessions
    /// (a re-issued code is how a forgotten password is reset) and logs them in.
    static func activate(code text: String, username: String?, password: String, context: ResolverContext) async throws -> GraphQLValue {
        let (tenant, services) = (context.tenant, context.services)
        guard let code = ActivationCode(typed: text) else { throw GraphQLError.badUserInput(field: "code", invalidCode) }
        let username = try username.map { try PeopleInput.username($0, field: "username") }
        try PeopleInput.newPassword(password, policy: tenant.file.passwords, field: "password")
        let activation = AccountContext.activation(tenantID: tenant.id, codeHash: code.storageHash)

        let found = try await context.transaction(activation) { tx in
            try await tx.query(LoginStatements.activationCode).count == 1
        }
        guard found else { throw GraphQLError.badUserInput(field: "code", invalidCode) }
        let hash = try await services.hasher.hash(password)

        return try await context.transaction(activation) { tx in
            let spent = try await tx.query(LoginStatements.spendActivationCode)
            guard let personID = try spent.first?.decode(UUID.self, at: 0) else { throw GraphQLError.badUserInput(field: "code", invalidCode) }
            // Their own row is visible whatever the role; the real role is read from it.
            try await AccountContext.person(tenantID: tenant.id, personID: personID, role: .youngPerson).enter(on: tx)
            guard let found = try await PersonRecord.find(personID, in: tx), !found.disabled else {
                throw GraphQLError.badUserInput(field: "code", invalidCode)
            }
            try await AccountContext.person(tenantID: tenant.id, personID: personID, role: found.role).enter(on: tx)
            if let username {
                _ = try await PeopleInput.uniquely(field: "username") {
                    try await tx.execute(LoginStatements.setUsername, personID, username)
                }
            }
            try await setPassword(hash: hash, personID: personID, in: tx)
            try await Sessions.revoke(personID: personID, in: tx)
            let (token, expiresAt) = try await Sessions.start(in: tx, personID: personID, policy: services.sessions)
            guard let record = try await PersonRecord.find(personID, in: tx) else { throw GraphQLError.internal() }
            // A new password starts with a clean slate: the failures of their names are forgotten.
            for name in [record.username, record.email].compactMap({ $0 }) {
                try await AccountContext.login(tenantID: tenant.id, loginName: name).enter(on: tx)
                try await LoginFailures.reset(in: tx)
            }
            return payload(token: token, expiresAt: expiresAt, person: record, tenant: tenant)
        }
    }

    /// Gives the person `personID` the password of `hash` (a PHC string), replacing any they had,
    /// in the transaction `tx`, which must be in that person's own context (the credentials'
    /// policies admit no one else).
    package static func setPassword(hash: String, personID: UUID, in tx: some PostgresQueryable) async throws {
        try await tx.execute(LoginStatements.setPassword, personID, hash)
    }

    /// `changePassword(currentPassword, newPassword)`: checks the current one, sets the new one
    /// and ends every other session of the person (this one stays).
    ///
    /// A wrong current password counts as a failed login of the person's name, under the same
    /// back-off: a session left open on a shared computer is no way to guess the password fast.
    static func changePassword(current: String, new: String, context: ResolverContext) async throws -> Bool {
        let viewer = try context.requireViewer()
        let (tenant, services) = (context.tenant, context.services)
        try PeopleInput.newPassword(new, policy: tenant.file.passwords, field: "newPassword")
        let wrong = GraphQLError.badUserInput(field: "currentPassword", "That is not your current password.")
        guard current.utf8.count <= PasswordHasher.maxPasswordBytes else { throw wrong }
        let lockout = Lockout(freeAttempts: tenant.file.lockout.freeAttempts, maxBackoffSeconds: tenant.file.lockout.maxBackoffSeconds)
        let now = attemptTime(services)
        let (stored, name, failures) = try await context.transaction { tx in
            let row = try await tx.query(LoginStatements.passwordAndLoginName, viewer.personID).first
            let name = try row?.decode(String?.self, at: 1) ?? ""
            try await AccountContext.login(tenantID: tenant.id, loginName: name).enter(on: tx)
            let failures = try await admitAttempt(in: tx, lockout: lockout, now: now)
            return (try row?.decode(String?.self, at: 0), name, failures)
        }
        guard try await services.hasher.verify(current, against: stored).ok else {
            throw wrongPassword(wrong, failures: failures, lockout: lockout)
        }
        let hash = try await services.hasher.hash(new)
        try await context.transaction(.login(tenantID: tenant.id, loginName: name)) { tx in
            try await LoginFailures.reset(in: tx)
        }
        try await context.transaction { tx in
            try await tx.execute(LoginStatements.replacePassword, viewer.personID, hash)
            try await Sessions.revoke(personID: viewer.personID, except: viewer.sessionID, in: tx)
        }
        return true
    }
}
