import Foundation
import GraphQL
import Logging
import Postgres
import StorykeepCore

/// Logging in with a passkey: `beginPasskeyLogin(username)`, `finishPasskeyLogin(assertion)`,
/// and the second step of a password login where `accounts.adultsRequirePasskey` asks for one.
///
/// A failure counts on the passkey's person under the same lockout as a wrong password
/// (``Login/admitAttempt(_:in:lockout:now:)``), is recorded as `login.failed`, and is answered
/// UNAUTHENTICATED with one message whatever failed: the challenge (unknown, spent, expired, of
/// another tenant), the origin, the relying party, user verification, the counter, the signature
/// or the credential (unknown, another person's). The reason goes to the server's debug log only.
enum PasskeyLogin {
    static let failed = "That passkey did not work. Please try again, or log in with your password."

    /// `beginPasskeyLogin(username)`: a challenge of nobody's, and the options for
    /// `navigator.credentials.get()`. Without a username the phone offers its passkeys for the
    /// relying party (discoverable credentials); with one, the person's credentials are listed,
    /// and a name that is nobody's, or someone's without a passkey, gets one credential id derived
    /// from the name and the tenant's key: the same each time, like a real one, so that the
    /// answer does not tell whether the name exists.
    static func begin(username: String?, context: ResolverContext) async throws -> String {
        let tenant = context.tenant
        var allow: [[UInt8]] = []
        if let username {
            let name = username.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty, TextLimit.loginName.admits(name) else {
                throw GraphQLError.badUserInput(field: "username", "Please enter your username or email, or none.")
            }
            allow = try await context.transaction(.login(tenantID: tenant.id, loginName: name)) { tx in
                try await tx.query(PasskeyStatements.credentialsOfLoginName).map { try $0.decode([UInt8].self, at: 0) }
            }
            if allow.isEmpty { allow = [tenant.cursorKey.derived(for: "passkey decoy \(name.lowercased())")] }
        }
        let challenge = try PasskeyOptions.newChallenge()
        let expiresAt = context.services.now().addingTimeInterval(PasskeyOptions.challengeLifetime)
        let passkeyContext = AccountContext.passkeyLogin(tenantID: tenant.id, challengeHash: Crypto.sha256(challenge), credentialID: [])
        try await context.transaction(passkeyContext) { tx in
            try await PasskeyChallenge.store(challenge, .login, personID: nil, expiresAt: expiresAt, in: tx)
        }
        return PasskeyOptions.request(challenge: challenge, relyingParty: RelyingParty(tenant: tenant), allow: allow)
    }

    /// The options of a password login's second step, when the tenant asks adults for a passkey
    /// too and `person` (whose password was right) is an adult with one: a challenge of theirs,
    /// offering their passkeys. Nil when no second step is needed. In the person's context.
    static func secondStep(person: UUID, role: PersonRole, context: ResolverContext, in tx: some PostgresQueryable) async throws -> String? {
        guard context.tenant.file.accounts.adultsRequirePasskey, role != .youngPerson else { return nil }
        let credentials = try await tx.query(PasskeyStatements.list, person).map { try $0.decode([UInt8].self, at: 4) }
        guard !credentials.isEmpty else { return nil }
        let challenge = try PasskeyOptions.newChallenge()
        let expiresAt = context.services.now().addingTimeInterval(PasskeyOptions.challengeLifetime)
        try await PasskeyChallenge.store(challenge, .secondStep, personID: person, expiresAt: expiresAt, in: tx)
        return PasskeyOptions.request(challenge: challenge, relyingParty: RelyingParty(tenant: context.tenant), allow: credentials)
    }

    /// The passkey an assertion names, as stored.
    private struct Stored: Sendable {
        var id: UUID, personID: UUID, userHandle: [UInt8], publicKey: [UInt8], signCount: UInt32
    }

    /// What the first transaction of a finish found.
    private struct Found: Sendable {
        var challenge: PasskeyChallenge?
        var passkey: Stored?
        var person: PersonRecord?
        /// The failures counted so far, this attempt's included, or LOCKED_OUT.
        var admission: Result<Int, GraphQLError>
    }

    /// `finishPasskeyLogin(assertion)`: see the type's description.
    static func finish(assertion text: String, context: ResolverContext) async throws -> GraphQLValue {
        let (tenant, services) = (context.tenant, context.services)
        let response = try AssertionResponse(json: text)
        let lockout = Lockout(freeAttempts: tenant.file.lockout.freeAttempts, maxBackoffSeconds: tenant.file.lockout.maxBackoffSeconds)
        let now = Login.attemptTime(services)
        let refusal = GraphQLError.unauthenticated(failed)

        guard let clientData = try? ClientData(json: response.clientDataJSON) else {
            try await recordFailure(nil, context: context)
            throw refusal
        }
        let passkeyContext = AccountContext.passkeyLogin(
            tenantID: tenant.id, challengeHash: Crypto.sha256(clientData.challenge), credentialID: response.credentialID)
        let found = try await context.transaction(passkeyContext) { tx in
            // Spent whatever follows: a challenge is good for one try.
            let challenge = try await PasskeyChallenge.spend(clientData.challenge, in: tx, now: now)
            guard let row = try await tx.query(PasskeyStatements.passkeyOfCredential).first else {
                return Found(challenge: challenge, admission: .success(0))
            }
            let passkey = Stored(
                id: try row.decode(UUID.self, at: 0), personID: try row.decode(UUID.self, at: 1), userHandle: try row.decode([UInt8].self, at: 2),
                publicKey: try row.decode([UInt8].self, at: 3), signCount: UInt32(clamping: try row.decode(Int64.self, at: 4)))
            // Their own row and failures are visible whatever the role; the real role is read from it.
            try await AccountContext.person(tenantID: tenant.id, personID: passkey.personID, role: .youngPerson).enter(on: tx)
            let person = try await PersonRecord.find(passkey.personID, in: tx)
            do {
                let failures = try await Login.admitAttempt(.person(passkey.personID), in: tx, lockout: lockout, now: now)
                return Found(challenge: challenge, passkey: passkey, person: person, admission: .success(failures))
            } catch let locked as GraphQLError {
                return Found(challenge: challenge, passkey: passkey, person: person, admission: .failure(locked))
            }
        }
        guard let passkey = found.passkey, let person = found.person else {
            try await recordFailure(nil, context: context)
            throw refusal
        }
        let failures = try found.admission.get()
        let counter: PasskeyCeremony.Counter
        do {
            guard let challenge = found.challenge else { throw PasskeyRefusal("the challenge is unknown, spent or expired") }
            switch challenge.purpose {
            case .login: break
            case .secondStep: guard challenge.personID == person.id else { throw PasskeyRefusal("a second step of another person") }
            case .register: throw PasskeyRefusal("a registration's challenge")
            }
            if let handle = response.userHandle, handle != passkey.userHandle { throw PasskeyRefusal("the user handle is not the passkey's") }
            counter = try PasskeyCeremony.verifyAssertion(
                clientData: clientData, authenticatorData: response.authenticatorData, signature: response.signature,
                publicKeyCOSE: passkey.publicKey, storedCount: passkey.signCount, relyingParty: RelyingParty(tenant: tenant))
            // The signature is theirs from here on: what is wrong may be said.
            if challenge.purpose == .login, tenant.file.accounts.adultsRequirePasskey, person.role != .youngPerson {
                try await recordFailure(person.id, context: context)
                throw GraphQLError.unauthenticated("Please log in with your password first, then with your passkey.")
            }
            if person.disabled {
                try await recordFailure(person.id, context: context)
                throw GraphQLError.unauthenticated("This account has been switched off. Please talk to your agency.")
            }
        } catch let refused as PasskeyRefusal {
            services.logger.debug("passkey login refused", metadata: ["reason": "\(refused.reason)"])
            try await recordFailure(person.id, context: context)
            throw Login.wrongPassword(refusal, failures: failures, lockout: lockout)
        }
        guard case .next(let count) = counter else {
            try await recordFailure(person.id, cloned: passkey.id, context: context)
            throw Login.wrongPassword(refusal, failures: failures, lockout: lockout)
        }

        let personContext = AccountContext.person(tenantID: tenant.id, personID: person.id, role: person.role)
        return try await context.transaction(personContext) { tx in
            // A concurrent login with a copy of the passkey moved the counter first: not this one.
            guard try await tx.query(PasskeyStatements.recordUse, passkey.id, Int64(count)).count == 1 else { throw refusal }
            try await LoginFailures.reset(.person(person.id), in: tx)
            let (token, expiresAt) = try await Sessions.start(in: tx, personID: person.id, policy: services.sessions)
            guard let record = try await PersonRecord.find(person.id, in: tx) else { throw GraphQLError.internal() }
            try await context.publish(LoggedIn(personID: person.id), in: tx)
            return Login.payload(token: token, expiresAt: expiresAt, person: record, tenant: tenant)
        }
    }

    /// Records a failed passkey login of `personID` (nil: a credential nobody has), and with
    /// `cloned` the passkey whose counter did not grow, each in a transaction of its own that
    /// commits although the login is refused.
    private static func recordFailure(_ personID: UUID?, cloned: UUID? = nil, context: ResolverContext) async throws {
        let tenantID = context.tenant.id
        let recorder: AccountContext =
            personID.map { .person(tenantID: tenantID, personID: $0, role: .youngPerson) } ?? .anonymous(tenantID: tenantID)
        try await context.transaction(recorder) { tx in
            if let cloned, let personID { try await context.audit(.passkeyCloned, by: .nobody, person: personID, subject: cloned, in: tx) }
            try await context.publish(LoginFailed(personID: personID), in: tx)
        }
    }
}

/// What `finishPasskeyLogin` is given: `PublicKeyCredential.toJSON()` of the credential
/// `navigator.credentials.get()` returned, as text (`JSON.stringify`).
struct AssertionResponse {
    var credentialID: [UInt8]
    var clientDataJSON: [UInt8]
    var authenticatorData: [UInt8]
    var signature: [UInt8]
    var userHandle: [UInt8]?

    private struct JSON: Decodable {
        struct Response: Decodable { var clientDataJSON: String, authenticatorData: String, signature: String, userHandle: String? }
        var id: String
        var rawId: String?
        var type: String
        var response: Response
    }

    init(json text: String) throws {
        guard text.utf8.count <= 65_536, let json = try? JSONDecoder().decode(JSON.self, from: Data(text.utf8)), json.type == "public-key",
            json.rawId == nil || json.rawId == json.id, let id = Crypto.bytes(base64URL: json.id), !id.isEmpty,
            let clientDataJSON = Crypto.bytes(base64URL: json.response.clientDataJSON),
            let authenticatorData = Crypto.bytes(base64URL: json.response.authenticatorData),
            let signature = Crypto.bytes(base64URL: json.response.signature)
        else {
            throw GraphQLError.badUserInput(field: "assertion", "That is not a passkey assertion (PublicKeyCredential.toJSON() as JSON).")
        }
        let handle = try json.response.userHandle.map { text in
            guard let bytes = Crypto.bytes(base64URL: text) else {
                throw GraphQLError.badUserInput(field: "assertion", "That is not a passkey assertion (PublicKeyCredential.toJSON() as JSON).")
            }
            return bytes
        }
        (credentialID, self.clientDataJSON, self.authenticatorData, self.signature, userHandle) = (id, clientDataJSON, authenticatorData, signature, handle)
    }
}
