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

    /// Refuses the attempt with LOCKED_OUT if `subject` must wait, else counts it as a failure in
    /// advance (a success resets the count) and returns the count. In a LOGIN transaction for a
    /// name, or the person's own.
    ///
    /// The lock, the read, the judgement and the count are one step (``LoginFailures/read(_:in:locking:)``
    /// locks until the transaction ends): concurrent attempts on one person or name are judged in
    /// turn, so a burst of guesses gets no more tries than a sequence would.
    static func admitAttempt(
        _ subject: LoginFailures.Subject, in tx: PostgresTransaction, lockout: Lockout, now: Date
    ) async throws -> Int {
        let record = try await LoginFailures.read(subject, in: tx, locking: true)
        if case .locked(let seconds) = lockout.decide(failures: record.failures, lastFailureAt: record.lastFailureAt, now: now) {
            throw GraphQLError.lockedOut(retryAfterSeconds: seconds)
        }
        return try await LoginFailures.recordFailure(subject, in: tx, at: now).failures
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
    /// statements and Argon2 time and get the same answer. Failures count on the person the name
    /// belongs to (either of their names), or on the name when it belongs to nobody.
    static func login(username: String, password: String, context: ResolverContext) async throws -> Outcome {
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
            // BEGIN, the LOGIN context and the account's lookup: one round trip.
            try await context.transaction(loginContext, beginningWith: [PostgresStatement(LoginStatements.account)]) { rows, tx in
                let account = try rows[0].first.flatMap { row -> Account? in
                    guard let role = PersonRole(rawValue: try row.decode(String.self, at: 1)) else { return nil }
                    return Account(
                        personID: try row.decode(UUID.self, at: 0), role: role, disabled: try row.decode(Bool.self, at: 2),
                        passwordHash: try row.decode(String?.self, at: 3))
                }
                let subject = account.map { LoginFailures.Subject.person($0.personID) } ?? .loginName
                return (try await admitAttempt(subject, in: tx, lockout: lockout, now: now), account)
            }
        }

        // Argon2, holding no connection; without an account (or a password yet), the dummy hash.
        let verification = try await services.hasher.verify(password, against: account?.passwordHash)
        guard verification.ok, let account, !account.disabled else {
            try await context.transaction(loginContext) { tx in try await context.publish(LoginFailed(personID: account?.personID), in: tx) }
            guard let account, verification.ok, account.disabled else {
                throw wrongPassword(.unauthenticated(wrongCredentials), failures: failures, lockout: lockout)
            }
            throw GraphQLError.unauthenticated("This account has been switched off. Please talk to your agency.")
        }
        let newHash = verification.needsRehash ? try await services.hasher.hash(password) : nil

        let person = AccountContext.person(tenantID: tenant.id, personID: account.personID, role: account.role)
        return try await context.transaction(person) { tx in
            if let newHash {
                try await tx.execute(LoginStatements.replacePassword, account.personID, newHash)
            }
            // The failures stay counted until the passkey is shown too.
            if let options = try await PasskeyLogin.secondStep(person: account.personID, role: account.role, context: context, in: tx) {
                return .passkeyRequired(options: options)
            }
            // Three statements that need nothing of each other: one round trip.
            let gathering = tx.gathering(participants: 3)
            async let reset: Void = gathering.participate { try await LoginFailures.reset(.person(account.personID), in: tx) }
            async let session = gathering.participate {
                try await Sessions.start(in: tx, personID: account.personID, policy: services.sessions)
            }
            async let personRecord = gathering.participate { try await PersonRecord.find(account.personID, in: tx) }
            let (_, (token, expiresAt), found) = try await (reset, session, personRecord)
            guard let record = found else { throw GraphQLError.internal() }
            try await context.publish(LoggedIn(personID: account.personID), in: tx)
            return .loggedIn(payload(token: token, expiresAt: expiresAt, person: record, tenant: tenant))
        }
    }

    /// What a right password leads to.
    enum Outcome: Sendable {
        /// A session (`LoginPayload`).
        case loggedIn(GraphQLValue)
        /// The second step: the tenant asks this adult for a passkey too (``PasskeyLogin/secondStep(person:role:context:in:)``).
        case passkeyRequired(options: String)

        /// The payload, or PASSKEY_REQUIRED with the options of the passkey to show.
        func payload() throws -> GraphQLValue {
            switch self {
            case .loggedIn(let payload): return payload
            case .passkeyRequired(let options):
                var error = GraphQLError(message: "Your password is right. Now please use your passkey.")
                error.extensions = ["code": .string("PASSKEY_REQUIRED"), "passkeyOptions": .string(options)]
                throw error
            }
        }
    }

    static let invalidCode = "That code is not right, or it has expired. Please ask your agency for a new one."

    /// `activateAccount(code, username, password)`: sets the password (and the username, if
    /// given) of the person the code was issued for, spends the code, ends their other sessions,
    /// forgets their failed logins and logs them in.
    ///
    /// A code is an onboarding code, for someone who has never set a password, or the code of a
    /// password reset two members of staff agreed to (``PasswordResets``), which is recorded as
    /// completed. An onboarding code for someone who has a password by now (issued while they
    /// activated with another one) opens nothing.
    static func activate(code text: String, username: String?, password: String, context: ResolverContext) async throws -> GraphQLValue {
        let (tenant, services) = (context.tenant, context.services)
        let invalid = GraphQLError.badUserInput(field: "code", invalidCode)
        guard let code = ActivationCode(typed: text) else { throw invalid }
        let username = try username.map { try PeopleInput.username($0, field: "username") }
        try PeopleInput.newPassword(password, policy: tenant.file.passwords, field: "password")
        let activation = AccountContext.activation(tenantID: tenant.id, codeHash: code.storageHash)

        let found = try await context.transaction(activation) { tx in
            try await tx.query(LoginStatements.activationCode).count == 1
        }
        guard found else { throw invalid }
        let hash = try await services.hasher.hash(password)

        return try await context.transaction(activation) { tx in
            let spent = try await tx.query(LoginStatements.spendActivationCode)
            guard let row = spent.first else { throw invalid }
            let (personID, resetID) = (try row.decode(UUID.self, at: 0), try row.decode(UUID?.self, at: 1))
            // Their own row is visible whatever the role; the real role is read from it.
            try await AccountContext.person(tenantID: tenant.id, personID: personID, role: .youngPerson).enter(on: tx)
            guard let found = try await PersonRecord.find(personID, in: tx), !found.disabled,
                resetID != nil || found.activatedAt == nil
            else { throw invalid }
            try await AccountContext.person(tenantID: tenant.id, personID: personID, role: found.role).enter(on: tx)
            if let username {
                _ = try await PeopleInput.uniquely(field: "username") {
                    try await tx.execute(LoginStatements.setUsername, personID, username)
                }
            }
            try await setPassword(hash: hash, personID: personID, in: tx)
            if let resetID { try await PasswordResets.complete(requestID: resetID, in: tx) }
            try await context.audit(
                resetID == nil ? .accountActivated : .passwordResetCompleted, by: .person(personID), person: personID, subject: resetID, in: tx)
            try await Sessions.revoke(personID: personID, in: tx)
            // A new password starts with a clean slate.
            try await LoginFailures.reset(.person(personID), in: tx)
            let (token, expiresAt) = try await Sessions.start(in: tx, personID: personID, policy: services.sessions)
            guard let record = try await PersonRecord.find(personID, in: tx) else { throw GraphQLError.internal() }
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
    /// A wrong current password counts as a failed login of the person, under the same back-off:
    /// a session left open on a shared computer is no way to guess the password fast.
    static func changePassword(current: String, new: String, context: ResolverContext) async throws -> Bool {
        let viewer = try context.requireViewer()
        let (tenant, services) = (context.tenant, context.services)
        try PeopleInput.newPassword(new, policy: tenant.file.passwords, field: "newPassword")
        let wrong = GraphQLError.badUserInput(field: "currentPassword", "That is not your current password.")
        guard current.utf8.count <= PasswordHasher.maxPasswordBytes else { throw wrong }
        let lockout = Lockout(freeAttempts: tenant.file.lockout.freeAttempts, maxBackoffSeconds: tenant.file.lockout.maxBackoffSeconds)
        let now = attemptTime(services)
        let subject = LoginFailures.Subject.person(viewer.personID)
        let (stored, failures) = try await context.transaction { tx in
            let failures = try await admitAttempt(subject, in: tx, lockout: lockout, now: now)
            let stored = try await tx.query(LoginStatements.passwordHash, viewer.personID).first?.decode(String.self, at: 0)
            return (stored, failures)
        }
        guard try await services.hasher.verify(current, against: stored).ok else {
            throw wrongPassword(wrong, failures: failures, lockout: lockout)
        }
        let hash = try await services.hasher.hash(new)
        try await context.transaction { tx in
            try await LoginFailures.reset(subject, in: tx)
            try await tx.execute(LoginStatements.replacePassword, viewer.personID, hash)
            try await Sessions.revoke(personID: viewer.personID, except: viewer.sessionID, in: tx)
        }
        return true
    }
}
