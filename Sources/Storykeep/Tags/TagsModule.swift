import Foundation
public import GraphQL
public import StorykeepCore
import StorykeepJournals

/// Tags in the schema (Schema/tags.graphql): the person's own tags, the tenant's suggestions,
/// and `Entry.tags`, which this module adds to the journal's entries. Switched on by `tags` in
/// the tenant file.
public struct TagsModule: StorykeepModule {
    public init() {}

    public var name: String { "tags" }
    public var switchedBy: TenantModule? { .tags }
    public var tenantSettings: [any TenantSettings.Type] { [TagSettings.self] }

    /// The tags of a request's entries, every entry of a round in one statement.
    static let tagsOfEntries = DataLoader<UUID, [Tag]>.inTransaction("Entry.tags") { entryIDs, _, tx in
        let tags = try await TagStore(tx).tags(ofEntries: entryIDs)
        return entryIDs.map { tags[$0] ?? [] }
    }

    public func register(_ module: inout ModuleRegistry) {
        module.entryListField("Entry.tags", Self.tagsOfEntries)
        module.query("tags", access: .authenticated) { _, context in
            try await context.transaction { tx in try await TagStore(tx).tags() }
        }
        module.query("suggestedTags", access: .authenticated) { _, context in
            let (own, language) = try await context.transaction { tx in (try await TagStore(tx).tags(), try await context.language(on: tx)) }
            let taken = Set(own.map { $0.name.lowercased() })
            return context.tenant.file.suggestedTags.map { $0.text(in: language) }.filter { !taken.contains($0.lowercased()) }
        }
        module.mutation("createTag", access: .authenticated) { arguments, context in
            try await context.transaction { tx in try await TagStore(tx).createTag(name: arguments["name"]?.stringValue ?? "") }
        }
        module.mutation("renameTag", access: .authenticated) { arguments, context in
            let id = try arguments.id("id")
            return try await context.transaction { tx in
                try await TagStore(tx).renameTag(id: id, to: arguments["name"]?.stringValue ?? "")
            }
        }
        module.mutation("deleteTag", access: .authenticated) { arguments, context in
            let id = try arguments.id("id")
            try await context.transaction { tx in try await TagStore(tx).deleteTag(id: id) }
            return true
        }
    }
}

extension Tag: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "name": self.name
        default: nil
        }
    }
}
