import Foundation
import GraphQL
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storykeep
import StorykeepTestSupport
import Testing

/// Who sends a fuzzed request.
enum FuzzRole: String, CaseIterable {
    case anonymous
    case youngPerson = "young person"
    case admin
}

/// A person the fuzz pass acts as: how they log in, and their session.
struct FuzzActor {
    var id: String
    var loginName: String
    var password: String
    var token: String
}

/// The fuzz pass's tenant and people: a young person and an agency admin logged in with real
/// logins, a bystander whose name and password `login` can use, a subject whose id `personId`
/// can name, and the young person's entries, tags and files, whose ids make requests valid up
/// to the value fuzzed.
///
/// Fuzzed requests may log people out, change their passwords or switch them off: ``heal(_:)``
/// logs them in again, or replaces them with new people, before each batch.
final class FuzzWorld {
    let harness: AccountsHarness
    let schema: IntrospectedSchema
    let findings = FuzzFindings()
    private(set) var actors: [FuzzRole: FuzzActor] = [:]
    let bystander: FuzzActor
    /// A young person the admin's requests are about (made, not activated).
    let subjectID: String
    /// The young person's: a tag, an entry (tagged), a deleted entry, an unattached file.
    private(set) var fixtures: (tag: String, entry: String, deletedEntry: String, media: String) = ("", "", "", "")
    private var serial = 0

    /// Introspects the tenant's schema anonymously, and makes the people.
    init(_ harness: AccountsHarness) async throws {
        self.harness = harness
        schema = try IntrospectedSchema(introspection: try await harness.graphQL(IntrospectedSchema.introspectionQuery))
        bystander = try await Self.person(.youngPerson, harness, name: "fuzz-bystander")
        subjectID = try await harness.createAsOperator(NewPerson(role: .youngPerson, displayName: "Subject", username: "fuzz-subject"))
            .person.id.uuidString.lowercased()
        actors[.youngPerson] = try await Self.person(.youngPerson, harness, name: "fuzz-young")
        actors[.admin] = try await Self.person(.agencyAdmin, harness, name: "fuzz-admin")
        try await refreshFixtures()
    }

    /// A new person of `role`, activated with a code from the tenant's operator, then logged in
    /// with their password as an app does.
    private static func person(_ role: PersonRole, _ harness: AccountsHarness, name: String) async throws -> FuzzActor {
        let person = try await harness.person(
            role, name, displayName: name, loginName: role == .youngPerson ? name : nil, password: "\(name) has a long password")
        let token = try await harness.logIn(person)
        return FuzzActor(id: person.id.uuidString.lowercased(), loginName: person.loginName, password: person.password, token: token)
    }

    /// A new person of `role`, logged in.
    func newPerson(_ role: PersonRole, name: String) async throws -> FuzzActor {
        try await Self.person(role, harness, name: name)
    }

    /// Makes the young person's tag, entries and file anew (a fuzzed request may have deleted them).
    func refreshFixtures() async throws {
        let token = try #require(actors[.youngPerson]?.token)
        serial += 1
        let tag = try await harness.graphQL(#"mutation { createTag(name: "fixture \#(serial)") { id } }"#, token: token)
        let tagID = try #require(tag["data"]?["createTag"]?.id, "\(tag.json)")
        let input: GraphQLObject = [
            "date": .string(Self.yesterday), "kind": .string("TEXT"), "text": .string(Self.fixtureText), "tagIds": .list([.string(tagID)]),
        ]
        let entry = try #require(try await harness.createEntry(input, token: token).id)
        let deleted = try #require(try await harness.createEntry(input, token: token).id)
        let deletion = try await harness.graphQL("mutation($id: ID!) { deleteEntry(id: $id) }", ["id": .string(deleted)], token: token)
        #expect(deletion["data"]?["deleteEntry"] == .bool(true), "\(deletion.json)")
        let media = try #require(try await harness.uploadMedia(SampleMedia.png, contentType: "image/png", token: token).id)
        fixtures = (tagID, entry, deleted, media)
    }

    /// Makes `role`'s session usable again: unchanged while `me` still answers with the person;
    /// else a new login; else (password changed, person switched off) a new person.
    func heal(_ role: FuzzRole) async throws {
        guard let actor = actors[role] else { return }
        let me = try await harness.graphQL("{ me { id } }", token: actor.token)
        if me["data"]?["me"]?.id == actor.id { return }
        if let token = try await login(actor.loginName, actor.password) {
            actors[role]?.token = token
        } else {
            serial += 1
            actors[role] = try await newPerson(
                role == .admin ? .agencyAdmin : .youngPerson, name: "fuzz-\(role == .admin ? "admin" : "young")-\(serial)")
            if role == .youngPerson { try await refreshFixtures() }
        }
    }

    /// Logs in (past any back-off, by moving the server's clock): the token, or nil when refused.
    func login(_ name: String, _ password: String) async throws -> String? {
        var response = try await harness.login(name, password)
        if let wait = response.errorExtensions?["retryAfterSeconds"]?.intValue {
            harness.clock.advance(seconds: Double(wait + 1))
            response = try await harness.login(name, password)
        }
        return response["data"]?["login"]?["token"]?.stringValue
    }

    /// Sends one request as `role` and judges the answer. A LOCKED_OUT answer is sent again once
    /// the back-off has passed, so that the value is judged, not the lockout.
    @discardableResult
    func send(
        _ body: [UInt8], as role: FuzzRole, path: String = "graphql", method: HTTPRequest.Method = .post,
        headers extra: HTTPFields = [.contentType: "application/json"], target: String, caseName: String, how: String
    ) async -> TestResponse? {
        var headers = extra
        if let token = actors[role]?.token, headers[.authorization] == nil { headers[.authorization] = "Bearer \(token)" }
        let clock = ContinuousClock()
        let start = clock.now
        do {
            var response = try await harness.client.execute(
                uri: "/t/\(harness.tenant.slug)/\(path)", method: method, headers: headers, body: ByteBuffer(bytes: body)) { $0 }
            if let wait = (try? response.json)?.errorExtensions?["retryAfterSeconds"]?.intValue {
                harness.clock.advance(seconds: Double(wait + 1))
                response = try await harness.client.execute(
                    uri: "/t/\(harness.tenant.slug)/\(path)", method: method, headers: headers, body: ByteBuffer(bytes: body)) { $0 }
            }
            findings.judge(response, took: clock.now - start, target: target, caseName: caseName, how: how)
            return response
        } catch {
            findings.noAnswer(error, took: clock.now - start, target: target, caseName: caseName, how: how)
            return nil
        }
    }

    /// Sends a whole HTTP request, as bytes, on a connection of its own, and judges the answer; a
    /// connection closed without one is allowed (a server may close on a request it cannot frame,
    /// or an upload it refuses before reading it), one that neither answers nor closes is not.
    func sendRaw(_ request: [UInt8], target: String, caseName: String, how: String) async {
        guard let port = harness.client.port else {
            Issue.record("the fuzz pass's raw requests need the live server")
            return
        }
        let clock = ContinuousClock()
        let start = clock.now
        let answer = await RawHTTPClient.send(request, port: port)
        if answer.timedOut {
            findings.noAnswer(RawHTTPClient.TimedOut(), took: clock.now - start, target: target, caseName: caseName, how: how)
            return
        }
        let body = answer.bytes.firstRange(of: Array("\r\n\r\n".utf8)).map { Array(answer.bytes[$0.upperBound...]) } ?? []
        findings.judge(
            status: answer.status ?? 0, body: body, took: clock.now - start, target: target, caseName: caseName,
            how: answer.status == nil ? how + ", closed without answer" : how)
    }

    /// Whether the process still serves: `/health/live` answers 200.
    func expectAlive(after batch: String) async throws {
        let response = try await harness.client.execute(uri: "/health/live", method: .get) { $0 }
        #expect(response.status == .ok, "the server stopped answering /health/live after \(batch)")
    }

    // MARK: - Valid values

    /// Valid values for the other inputs of a request sent as `role`, by their names and types.
    func plausible(as role: FuzzRole) -> FuzzPlausible {
        { name, type, field, required in
            if required { return try await self.plausible(name, type, field: field, role: role) }
            // An optional input is given only where its name says what it holds (a username, an
            // email), which another input may need (a young person needs one or the other).
            guard case .named(let typeName) = type, self.schema.types[typeName]?.kind == .scalar else { return nil }
            return try await self.named(name, field: field, role: role)
        }
    }

    private func plausible(_ name: String, _ type: IntrospectedSchema.TypeRef, field: String, role: FuzzRole) async throws -> FuzzValue {
        switch type {
        case .nonNull(let of):
            return try await plausible(name, of, field: field, role: role)
        case .list(let of):
            return .list([try await plausible(name, of, field: field, role: role)])
        case .named(let typeName):
            guard let named = schema.types[typeName] else { return .null }
            switch named.kind {
            case .enumeration:
                return .enumValue(named.enumValues.first ?? "")
            case .inputObject:
                var entries: [(String, FuzzValue)] = []
                for inner in named.inputFields where inner.isRequired {
                    entries.append((inner.name, try await plausible(inner.name, inner.type, field: field, role: role)))
                }
                return .object(entries)
            default:
                if let value = try await self.named(name, field: field, role: role) { return value }
                return scalar(name, typeName, field: field)
            }
        }
    }

    /// A valid value for an input whose name says what it holds, or nil.
    private func named(_ name: String, field: String, role: FuzzRole) async throws -> FuzzValue? {
        serial += 1
        switch name {
        case "code":
            let issued = try await harness.createAsOperator(NewPerson(role: .youngPerson, displayName: "Coded", username: "coded-\(serial)"))
            return .string(issued.code.displayText)
        case "username" where field == "login": return .string(bystander.loginName)
        case "password" where field == "login": return .string(bystander.password)
        case "username": return .string("fuzz-user-\(serial)")
        case "currentPassword": return .string(actors[role]?.password ?? "no password")
        case "password", "newPassword": return .string("a new password \(serial)")
        case "email": return .string("fuzz-\(serial)@example.org")
        case "version": return .string(harness.tenant.file.termsVersion)
        case "month": return .string(String(Self.yesterday.prefix(7)))
        case "mood", "label": return .string(harness.tenant.file.moodIcons.first?.label ?? "Okay")
        case "emoji": return .string("🙂")
        case "value": return .string("#336699")
        case "role": return .string("primary")
        case "name": return .string("fuzz tag \(serial)")
        case "query", "text": return .string(Self.fixtureText)
        default: return nil
        }
    }

    /// A valid scalar of `typeName`; an id of a fixture its name (or its field's) speaks of.
    private func scalar(_ name: String, _ typeName: String, field: String) -> FuzzValue {
        switch typeName {
        case "ID":
            let lowered = name.lowercased()
            let about = lowered.contains("id") && lowered != "id" ? lowered : field.lowercased()
            if about.contains("person") { return .string(subjectID) }
            if about.contains("tag") { return .string(fixtures.tag) }
            if about.contains("media") { return .string(fixtures.media) }
            if about.contains("restore") { return .string(fixtures.deletedEntry) }
            if about.contains("entry") { return .string(fixtures.entry) }
            return .string(String(format: "00000000-0000-4000-8000-%012d", serial))
        case "Int", "Float": return .token("1")
        case "Boolean": return .token("true")
        case "Date": return .string(Self.yesterday)
        case "Upload": return .null
        default: return .string("fuzz \(serial)")
        }
    }

    /// The fixture entries' text, which a valid search finds.
    static let fixtureText = "fixture"

    /// Yesterday in UTC, `YYYY-MM-DD`: a day before today in every agency's time zone.
    static var yesterday: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date().addingTimeInterval(-86_400))
    }
}
