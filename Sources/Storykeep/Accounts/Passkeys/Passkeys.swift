import Foundation
import GraphQL
import Postgres
import StorykeepCore

/// A person's passkeys: registering one (`beginPasskeyRegistration`, `finishPasskeyRegistration`),
/// listing, renaming and removing them. Everything runs in the person's own context: nobody else
/// sees a passkey (Migrations/0045_accounts_passkeys.sql).
enum Passkeys {
    /// A passkey as the API shows it (the GraphQL type `Passkey`): $1..$5 of ``PasskeyStatements/list``.
    static func graphQLValue(_ row: PostgresRow) throws -> GraphQLValue {
        .object([
            "id": .string(try row.decode(UUID.self, at: 0).lowercased),
            "name": .string(try row.decode(String.self, at: 1)),
            "createdAt": .string(DateTimeScalar.string(try row.decode(Date.self, at: 2))),
            "lastUsedAt": try row.decode(Date?.self, at: 3).map { .string(DateTimeScalar.string($0)) } ?? .null,
        ])
    }

    static func list(personID: UUID, in tx: some PostgresQueryable) async throws -> [GraphQLValue] {
        try await tx.query(PasskeyStatements.list, personID).map(graphQLValue)
    }

    /// `beginPasskeyRegistration`: a challenge of the person's, and the options for
    /// `navigator.credentials.create()`, excluding the passkeys they have.
    static func beginRegistration(context: ResolverContext) async throws -> String {
        let viewer = try context.requireViewer()
        let relyingParty = RelyingParty(tenant: context.tenant)
        let expiresAt = context.services.now().addingTimeInterval(PasskeyOptions.challengeLifetime)
        return try await context.transaction { tx in
            guard let person = try await PersonRecord.find(viewer.personID, in: tx) else { throw GraphQLError.unauthenticated() }
            let existing = try await tx.query(PasskeyStatements.list, viewer.personID).map { try $0.decode([UInt8].self, at: 4) }
            let handle = try await tx.query(PasskeyStatements.userHandle, viewer.personID).first?.decode([UInt8].self, at: 0)
                ?? Crypto.randomBytes(32)
            let challenge = try PasskeyOptions.newChallenge()
            try await PasskeyChallenge.store(challenge, .register, personID: viewer.personID, userHandle: handle, expiresAt: expiresAt, in: tx)
            return PasskeyOptions.creation(
                challenge: challenge, relyingParty: relyingParty, userHandle: handle,
                userName: person.username ?? person.email ?? person.displayName, displayName: person.displayName, exclude: existing)
        }
    }

    static let invalidCredential = "That passkey could not be added. Please try again."

    /// `finishPasskeyRegistration(credential, name)`: spends the person's challenge that the
    /// credential's client data names, verifies the credential (``PasskeyCeremony``) and stores it.
    /// Any refusal is BAD_USER_INPUT on `credential`, saying which check failed: the person is
    /// logged in, and the app's developer needs to know.
    static func finishRegistration(credential text: String, name: String?, context: ResolverContext) async throws -> GraphQLValue {
        let viewer = try context.requireViewer()
        let name = try passkeyName(name ?? "Passkey", field: "name")
        let response = try RegistrationResponse(json: text)
        let relyingParty = RelyingParty(tenant: context.tenant)
        let now = context.services.now()
        return try await context.transaction { tx in
            // Spent by the passkey it registers; a refusal changes nothing, as any failed mutation.
            guard let challenge = try await PasskeyChallenge.spend(response.clientData.challenge, in: tx, now: now),
                challenge.purpose == .register, challenge.personID == viewer.personID, let handle = challenge.userHandle
            else { throw refused("the challenge is unknown, spent, expired or not for registering") }
            let registered: PasskeyCeremony.Registered
            do {
                registered = try PasskeyCeremony.verifyRegistration(
                    clientData: response.clientData, attestationObject: response.attestationObject, relyingParty: relyingParty)
            } catch { throw refused("\(error)") }
            guard registered.credentialID == response.credentialID else { throw refused("the credential id is not the authenticator's") }
            let rows: PostgresRows
            do {
                rows = try await tx.query(
                    PasskeyStatements.insert, viewer.personID, registered.credentialID, handle, registered.publicKeyCOSE,
                    registered.algorithm.rawValue, Int64(registered.signCount), name)
            } catch let error as PostgresError where error.sqlState == PostgresError.SQLState.uniqueViolation {
                throw GraphQLError.badUserInput(field: "credential", "That passkey is already registered.")
            }
            let id = try rows[0].decode(UUID.self, at: 0)
            try await context.audit(.passkeyRegistered, person: viewer.personID, subject: id, in: tx)
            return try graphQLValue(rows[0])
        }
    }

    /// `renamePasskey(id, name)`.
    static func rename(id: UUID, name: String, context: ResolverContext) async throws -> GraphQLValue {
        let viewer = try context.requireViewer()
        let name = try passkeyName(name, field: "name")
        return try await context.transaction { tx in
            guard let row = try await tx.query(PasskeyStatements.rename, viewer.personID, id, name).first else { throw GraphQLError.notFound() }
            return try graphQLValue(row)
        }
    }

    /// `removePasskey(id)`: the passkey no longer logs anyone in.
    static func remove(id: UUID, context: ResolverContext) async throws -> Bool {
        let viewer = try context.requireViewer()
        return try await context.transaction { tx in
            guard try await tx.query(PasskeyStatements.remove, viewer.personID, id).count == 1 else { throw GraphQLError.notFound() }
            try await context.audit(.passkeyRemoved, person: viewer.personID, subject: id, in: tx)
            return true
        }
    }

    /// A passkey's name: 1 to 60 characters once trimmed.
    private static func passkeyName(_ text: String, field: String) throws -> String {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...60).contains(name.unicodeScalars.count) else {
            throw GraphQLError.badUserInput(field: field, "A passkey's name needs 1 to 60 characters.")
        }
        return name
    }

    private static func refused(_ reason: String) -> GraphQLError {
        .badUserInput(field: "credential", "\(invalidCredential) (\(reason))")
    }
}

/// What `finishPasskeyRegistration` is given: `PublicKeyCredential.toJSON()` of the credential
/// `navigator.credentials.create()` made, as text (`JSON.stringify`).
struct RegistrationResponse {
    var credentialID: [UInt8]
    var clientData: ClientData
    var attestationObject: [UInt8]

    private struct JSON: Decodable {
        struct Response: Decodable { var clientDataJSON: String, attestationObject: String }
        var id: String
        var rawId: String?
        var type: String
        var response: Response
    }

    init(json text: String) throws {
        let invalid = GraphQLError.badUserInput(field: "credential", "That is not a passkey credential (PublicKeyCredential.toJSON() as JSON).")
        guard text.utf8.count <= 65_536, let json = try? JSONDecoder().decode(JSON.self, from: Data(text.utf8)), json.type == "public-key",
            json.rawId == nil || json.rawId == json.id, let id = Crypto.bytes(base64URL: json.id),
            let clientDataJSON = Crypto.bytes(base64URL: json.response.clientDataJSON),
            let attestationObject = Crypto.bytes(base64URL: json.response.attestationObject)
        else { throw invalid }
        do { clientData = try ClientData(json: clientDataJSON) } catch {
            throw GraphQLError.badUserInput(field: "credential", "\(Passkeys.invalidCredential) (\(error))")
        }
        (credentialID, self.attestationObject) = (id, attestationObject)
    }
}
