import Foundation
import Postgres
import Storykeep
import StorykeepCore
import StorykeepTenancy
import Testing

/// A tenant made for one test: its file, as applied (whose keys it reads as its own:
/// `tenant.slug`, `tenant.hosts`), and its id.
@dynamicMemberLookup
public struct TestTenant: Sendable {
    public let file: TenantFile
    public let id: UUID

    public subscript<Value>(dynamicMember key: KeyPath<TenantFile, Value>) -> Value { file[keyPath: key] }
}

/// Tenants of one test each, made as `storykeep tenant apply` makes them, with slugs no other
/// test uses, so that the tests run in parallel on one database.
public enum TestTenants {
    /// A slug no other test uses: `prefix`, a dash and eight hexadecimal digits.
    public static func uniqueSlug(_ prefix: String) -> String {
        prefix + "-" + UUID().uuidString.prefix(8).lowercased()
    }

    /// A tenant file of a unique slug (tags and sharing on, one mood), changed by `tweak`; not
    /// applied.
    public static func file(slugPrefix: String = "s", _ tweak: (inout TenantFile) -> Void = { _ in }) throws -> TenantFile {
        let slug = uniqueSlug(slugPrefix)
        var file = try TenantFiles.decode(
            """
            slug: \(slug)
            displayName: Agency \(slug)
            timeZone: Europe/London
            termsVersion: "3"
            modules: [tags, sharing]
            moodIcons: [{ emoji: "🙂", label: Okay }]
            """,
            file: slug
        )
        tweak(&file)
        return file
    }

    /// Applies `files` as the owner role, in one transaction: the tenants with their ids.
    public static func apply(_ files: [TenantFile], owner: PostgresPool) async throws -> [TestTenant] {
        _ = try await TenantStore(pool: owner).apply(files)
        let ids = try await owner.transaction { tx in
            try await tx.query("select slug, tenant_id from tenants where slug = any($1)", files.map(\.slug)).map { row in
                (try row.decode(String.self, at: 0), try row.decode(UUID.self, at: 1))
            }
        }
        let idOfSlug = Dictionary(uniqueKeysWithValues: ids)
        return try files.map { TestTenant(file: $0, id: try #require(idOfSlug[$0.slug], "tenant \($0.slug) not applied")) }
    }
}

/// Creates `count` tenants of unique slugs as the owner role; `tweak` may change each file (its
/// index first), to set hosts, say.
public func makeTenants(
    _ count: Int, slugPrefix: String = "s", _ tweak: (Int, inout TenantFile) -> Void = { _, _ in }
) async throws -> [TestTenant] {
    let files = try (0..<count).map { index in try TestTenants.file(slugPrefix: slugPrefix) { tweak(index, &$0) } }
    return try await TestDatabase.ownerPool().closing { owner in try await TestTenants.apply(files, owner: owner) }
}

/// Turns a tenant off or on, as the owner role.
public func setEnabled(_ enabled: Bool, _ slug: String) async throws {
    _ = try await TestDatabase.ownerPool().closing { owner in try await TenantStore(pool: owner).setEnabled(enabled, slug: slug) }
}
