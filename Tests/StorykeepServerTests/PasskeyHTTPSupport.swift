import Foundation
import GraphQL
import Postgres
import StorykeepAccounts
import StorykeepCore
import StorykeepTestSupport
import Testing

/// A software passkey authenticator (Client/soft_authenticator.py, on the fido2 package's
/// WebAuthn types) in front of the test server: registering and logging in through GraphQL over
/// HTTP as a PWA does, with flags that make the authenticator misbehave.
struct SoftAuthenticator {
    static let script = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Client/soft_authenticator.py").path
    /// The PWA's origin: in the test tenants' `cors.origins`, and under the relying party id
    /// `localhost` of a tenant without hosts.
    static let origin = "http://localhost:5173"

    static func allowOrigin(_: Int, _ file: inout TenantFile) { file.cors = CORSPolicy(origins: [origin]) }

    static let beginRegistration = "mutation { beginPasskeyRegistration }"
    static let finishRegistration =
        "mutation($c: String!, $n: String) { finishPasskeyRegistration(credential: $c, name: $n) { id name createdAt lastUsedAt } }"
    static let beginLogin = "mutation($u: String) { beginPasskeyLogin(username: $u) }"
    static let finishLogin = "mutation($a: String!) { finishPasskeyLogin(assertion: $a) { token person { id role } } }"

    /// Where this authenticator keeps its credential's private key and counter.
    let state = FileManager.default.temporaryDirectory.appending(path: "passkey-\(UUID()).json")

    /// Runs the authenticator's `command` (`create` or `get`) on `options`: the credential's JSON.
    func run(_ command: String, _ options: String, _ flags: [String], origin: String = origin) async throws -> String {
        let (status, output) = try await runProcess(["python3", Self.script, command, state.path, origin, options] + flags)
        #expect(status == 0, "\(output)")
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `beginPasskeyRegistration` as `person`, then the authenticator's credential for it.
    func create(_ h: AccountsHarness, as person: TestPerson, _ flags: [String] = [], origin: String = origin) async throws -> String {
        let options = try await h.data(Self.beginRegistration, "beginPasskeyRegistration", as: person)
        return try await run("create", try #require(options.stringValue), flags, origin: origin)
    }

    /// Registers a passkey of `person`: the `Passkey` answered.
    @discardableResult
    func register(_ h: AccountsHarness, _ person: TestPerson, _ flags: [String] = [], name: String? = nil) async throws -> GraphQLValue {
        let credential = try await create(h, as: person, flags)
        return try await h.data(Self.finishRegistration, "finishPasskeyRegistration", ["c": .string(credential), "n": name.map(GraphQLValue.string) ?? .null], as: person)
    }

    /// `beginPasskeyLogin(username)` in `tenant`: the request options.
    static func loginOptions(_ h: AccountsHarness, username: String? = nil, tenant: TestTenant? = nil) async throws -> String {
        let response = try await h.graphQL(beginLogin, ["u": username.map(GraphQLValue.string) ?? .null], tenant: tenant)
        return try #require(response["data"]?["beginPasskeyLogin"]?.stringValue, "\(response.json)")
    }

    /// The authenticator's assertion for `options`.
    func assertion(_ options: String, _ flags: [String] = [], origin: String = origin) async throws -> String {
        try await run("get", options, flags, origin: origin)
    }

    /// `finishPasskeyLogin(assertion)` in `tenant`: the whole response.
    static func finish(_ h: AccountsHarness, _ assertion: String, tenant: TestTenant? = nil) async throws -> GraphQLValue {
        try await h.graphQL(finishLogin, ["a": .string(assertion)], tenant: tenant)
    }

    /// A whole usernameless login: options, assertion (with `flags`), finish.
    func logIn(_ h: AccountsHarness, _ flags: [String] = [], origin: String = origin) async throws -> GraphQLValue {
        let options = try await Self.loginOptions(h)
        return try await Self.finish(h, try await assertion(options, flags, origin: origin))
    }
}

extension GraphQLValue {
    /// The JSON text of a string value (the options), parsed.
    var parsedJSON: [String: Any]? {
        stringValue.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
}

extension AccountsHarness {
    /// The audit trail's actions about `person`, oldest first, read as the tenant's operator.
    func auditActions(about person: TestPerson) async throws -> [String] {
        try await owner.transaction(settings: AccountContext.tenantOperator(tenantID: tenant.id).settings) { tx in
            try await tx.query("select action from audit_events where subject_person_id = $1 order by occurred_at, id", person.id)
                .map { try $0.decode(String.self, at: 0) }
        }
    }
}
