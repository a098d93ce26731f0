import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepTestSupport
import Testing

/// What the journal's tests over HTTP share: a tenant with the journal's modules, entries and
/// uploads as an app makes them.
enum JournalHTTP {
    /// The test tenant with tags and the archive, several moods, prompts and suggested tags.
    static let tenant: @Sendable (Int, inout TenantFile) -> Void = { _, file in
        let sample = try! TenantFiles.decode(
            """
            slug: sample
            displayName: Sample
            timeZone: Europe/London
            termsVersion: "1"
            modules: [tags, archive]
            moodIcons:
              - { emoji: "😄", label: Happy }
              - { emoji: "🙂", label: Okay }
              - { emoji: "😢", label: Sad }
            suggestedTags: [Friends, Family, Sports]
            prompts:
              - text: What made you smile today?
                moods: [Happy]
              - text: Who helped you today?
              - text: What is on your mind?
                moods: [Sad]
            """, file: "sample")
        file.modules = sample.modules
        file.moodIcons = sample.moodIcons
        file.suggestedTags = sample.suggestedTags
        file.prompts = sample.prompts
    }

    /// The fields of an entry the tests read back.
    static let entryFields = "id date kind text mood background suggestion tags { id name } media { id contentType byteSize sha256 url }"
}

extension AccountsHarness {
    /// Uploads one file with `uploadMedia`: the `Media` object.
    func uploadMedia(_ bytes: [UInt8], contentType: String, token: String) async throws -> GraphQLValue {
        let response = try await upload(
            "mutation($f: Upload!) { uploadMedia(file: $f) { id contentType byteSize sha256 url } }", ["f": .null],
            files: [("f", bytes, contentType)], token: token)
        return try #require(response["data"]?["uploadMedia"], "\(response.json)")
    }

    /// Writes an entry: the `Entry` object.
    func createEntry(_ input: GraphQLObject, token: String) async throws -> GraphQLValue {
        let response = try await graphQL(
            "mutation($i: EntryInput!) { createEntry(input: $i) { \(JournalHTTP.entryFields) } }", ["i": .object(input)], token: token)
        return try #require(response["data"]?["createEntry"], "\(response.json)")
    }

    /// Counts rows of `table` the person `id` owns, read in their own database context.
    func count(_ table: String, ownedBy id: UUID, column: String = "owner_id") async throws -> Int {
        try await app.transaction(settings: AccountContext.person(tenantID: tenant.id, personID: id, role: .youngPerson).settings) { tx in
            try await tx.query("select count(*) from \(table) where \(column) = $1", id)[0].decode(Int.self, at: 0)
        }
    }
}
